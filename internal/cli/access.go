package cli

import (
	"context"
	"fmt"

	"github.com/go-zookeeper/zk"
	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// need is the permission an action needs on node: DELETE on the parent to
// delete it (force-release, fence), WRITE on the node itself to write it
// (revoke), CREATE on the lock's node to join it (acquire).
type need struct {
	verb string // "delete", "write", "create under"
	on   string // the node whose ACL decides
	perm int32
}

// needFor is what action needs on node.
func needFor(action, node string) need {
	switch action {
	case "revoke":
		return need{verb: "write", on: node, perm: zk.PermWrite}
	case "acquire":
		return need{verb: "create under", on: node, perm: zk.PermCreate}
	}
	return need{verb: "delete", on: zkwatch.ParentOf(node), perm: zk.PermDelete}
}

// checkAccess reads the ACL the action needs a permission of and the
// session's identities, and refuses before anything is tried when no
// identity of the session has it; otherwise it says on stderr who may do
// it, or that it cannot be known, so that the confirmation that follows is
// made knowing it.
func checkAccess(cmd *cobra.Command, conn *zkwatch.Conn, action, node string) error {
	n := needFor(action, node)
	a, err := conn.CheckAccess(cmd.Context(), n.on, n.perm)
	if err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "  (whether this session may %s %s is not known: %v)\n",
			n.verb, model.Printable(node), err)
		return nil
	}
	if denial := a.Denial(n.verb, model.Printable(node)); denial != nil {
		return &exitError{code: exitFailed, err: fmt.Errorf("%s refused, nothing was changed: %w", action, denial)}
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "  (%s)\n", model.Printable(a.Summary()))
	return nil
}

// checkAcquireAccess is checkAccess for joining the lock at path, when its
// node exists: a lock not made yet is created with its ancestors, whose
// ACLs the server checks one by one.
func checkAcquireAccess(cmd *cobra.Command, conn *zkwatch.Conn, path string) error {
	if _, err := conn.ReadNodeDetail(cmd.Context(), path); err != nil {
		return nil
	}
	return checkAccess(cmd, conn, "acquire", path)
}

// accessHook is model.Actions.Access on conn, for the UI: what
// checkAccess says, as a summary for its dialogs and a refusal.
func accessHook(conn *zkwatch.Conn) func(ctx context.Context, kind lockcore.ActionKind, node string) (string, error) {
	return func(ctx context.Context, kind lockcore.ActionKind, node string) (string, error) {
		n := needFor(string(kind), node)
		a, err := conn.CheckAccess(ctx, n.on, n.perm)
		if err != nil {
			return fmt.Sprintf("whether this session may %s it is not known: %v", n.verb, err), nil
		}
		if denial := a.Denial(n.verb, node); denial != nil {
			return "", denial
		}
		return a.Summary(), nil
	}
}

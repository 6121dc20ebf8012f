package cli

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// checkAccess reads the ACL the action needs a permission of and the
// session's identities, and refuses before anything is tried when no
// identity of the session has it; otherwise it says on stderr who may do
// it, or that it cannot be known, so that the confirmation that follows is
// made knowing it.
func checkAccess(cmd *cobra.Command, conn *zkwatch.Conn, action, node string) error {
	n := zkwatch.NeedFor(action, node)
	a, err := conn.CheckAccess(cmd.Context(), n.On, n.Perm)
	if err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "  (whether this session may %s %s is not known: %v)\n",
			n.Verb, model.Printable(node), err)
		return nil
	}
	if denial := a.Denial(n.Verb, model.Printable(node)); denial != nil {
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

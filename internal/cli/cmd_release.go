package cli

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"

	"github.com/zklocks/zklocks/lockclient"
)

func newReleaseCommand(g *globalFlags, o *operateFlags) *cobra.Command {
	var force, yes bool
	cmd := &cobra.Command{
		Use:   "release NODE --force [--yes]",
		Short: "Force-release a lock: delete a contender's node (usually a stuck holder's)",
		Long: `release deletes the contender node NODE (its full path), which lets the next waiter in.
The session that owned it is not told and may still believe it holds: use fencing tokens
downstream, and for Curator locks made revocable try 'zklocks revoke NODE' first.

The node is read first and shown (session, client address, age, whether it holds or waits
and its place in the queue); the delete happens only if it is still the same node (czxid,
owner, version) and is version-checked. It asks for an explicit y on a terminal, and
refuses without one unless --yes. Every attempt is appended to the audit log (with this
host and "via": "cli"), one refused for want of a y or by the ACL too. Refused under
--read-only.

When another operator, its client or its session's end removed the node first, nothing is
deleted, and the refusal says what can be known of it: another delete in this machine's
audit log (who, from the UI or the command line, on which host, when), else when it went
and whether its session is still connected (deleted by another session) or not (ended).

` + exitCodesHelp(),
		Args: exactlyOnePath,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !force {
				return &exitError{code: exitUsage, err: fmt.Errorf("release deletes another session's node: say --force")}
			}
			return actOnNode(cmd, g, o, args[0], yes, "force-release",
				"Delete %s? Its session is not told and may go on as if it held the lock.",
				func(a *model.Actions, e lockclient.Expect) error { return a.ForceRelease(cmd.Context(), e) }, nil)
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "confirm that this deletes a node another session owns")
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "do not ask for confirmation")
	return cmd
}

func newRevokeCommand(g *globalFlags, o *operateFlags) *cobra.Command {
	var yes bool
	var wait time.Duration
	cmd := &cobra.Command{
		Use:   "revoke NODE [--yes] [--wait D]",
		Short: "Ask a Curator holder to release, politely (writes __REVOKE__ into its node)",
		Long: `revoke writes __REVOKE__ into NODE's data, as Curator's Revoker does: a request, not force.
A Curator holder that made its lock revocable releases when it sees it; one that did not
ignores it, and its node keeps __REVOKE__ as data. Nodes of other recipes, whose clients
ignore the request, and persistent nodes are refused. Version-checked against the node as
read, confirmed like release, audited, refused under --read-only.

It then waits up to --wait for the node to go, reading it (it sets no watch), and says
what happened: released, or still held (exit 5). --wait 0 only makes the request.

` + exitCodesHelp(exitStillHeld),
		Args: exactlyOnePath,
		RunE: func(cmd *cobra.Command, args []string) error {
			if wait < 0 {
				return &exitError{code: exitUsage, err: fmt.Errorf("--wait must not be negative")}
			}
			return actOnNode(cmd, g, o, args[0], yes, "revoke",
				"Ask the holder of %s to release (Curator revocation)?",
				func(a *model.Actions, e lockclient.Expect) error { return a.Revoke(cmd.Context(), e) },
				func(a *model.Actions, e lockclient.Expect) error { return awaitRevoked(cmd, a, e, wait) })
		},
	}
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "do not ask for confirmation")
	cmd.Flags().DurationVar(&wait, "wait", defaultRevokeWait, "how long to wait for the holder to release after the request (0: do not wait)")
	return cmd
}

// defaultRevokeWait is how long revoke waits for the release: a revocable
// Curator holder hears the request as a watch notification, at once.
const defaultRevokeWait = 5 * time.Second

// awaitRevoked waits up to wait for the holder asked by revoke to
// release, and says what happened.
func awaitRevoked(cmd *cobra.Command, a *model.Actions, e lockclient.Expect, wait time.Duration) error {
	stderr, node := cmd.ErrOrStderr(), model.Printable(e.Path)
	if wait == 0 {
		fmt.Fprintf(stderr, "zklocks: not waiting for the release (--wait 0)\n")
		return nil
	}
	fmt.Fprintf(stderr, "zklocks: waiting up to %s for the holder to release\n", wait)
	start := time.Now()
	ctx, cancel := context.WithTimeout(cmd.Context(), wait)
	defer cancel()
	released, err := a.AwaitRelease(ctx, e)
	switch {
	case err != nil:
		return &exitError{code: exitFailed, err: fmt.Errorf("revoke requested, but whether it was released cannot be told: %w", err)}
	case released:
		fmt.Fprintf(stderr, "zklocks: released: %s is gone after %s\n", node, model.Duration(time.Since(start)))
		return nil
	case cmd.Context().Err() != nil:
		return &exitError{code: exitFailed, err: fmt.Errorf("revoke requested; interrupted while waiting for the release: %w", cmd.Context().Err())}
	}
	return &exitError{code: exitStillHeld, err: fmt.Errorf("still held after %s: its client did not act on the request "+
		"(a Curator holder acts only if it made its lock revocable); %s keeps __REVOKE__ as its data; "+
		"'zklocks release --force %s' deletes it", wait, node, node)}
}

func exactlyOnePath(cmd *cobra.Command, args []string) error {
	if len(args) != 1 {
		return &exitError{code: exitUsage, err: fmt.Errorf("%s takes exactly one NODE path", cmd.Name())}
	}
	if err := zkwatch.ValidatePath(args[0]); err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	return nil
}

// actOnNode reads the node, describes it, asks, and acts on exactly what
// was shown.
// then, when not nil, follows an action that went through: the action
// is then only a request (revoke), and then says what became of it.
func actOnNode(cmd *cobra.Command, g *globalFlags, o *operateFlags, node string, yes bool, action, question string,
	act, then func(*model.Actions, lockclient.Expect) error) error {
	s, err := g.load()
	if err != nil {
		return err
	}
	if err := refuseUnapproved(cmd, s); err != nil {
		return err
	}
	actions, conn, done, err := operator(cmd, s, o)
	if err != nil {
		return err
	}
	defer done()
	d, err := conn.ReadNodeDetail(cmd.Context(), node)
	if errors.Is(err, zk.ErrNoNode) {
		return goneBeforeRead(o.auditLog, action, node)
	}
	if err != nil {
		return &exitError{code: exitFailed, err: err}
	}
	readAt := time.Now()
	fmt.Fprintln(cmd.ErrOrStderr(), describeNode(cmd.Context(), conn, node, d.Stat))
	fmt.Fprintln(cmd.ErrOrStderr(), roleLine(cmd.Context(), conn, s, node, d.Stat.Czxid))
	revocable := lockcore.CheckRevocable(path.Base(node), d.Stat.EphemeralOwner)
	switch {
	case action == "revoke" && revocable != nil:
		return &exitError{code: exitFailed, err: fmt.Errorf("revoke refused, nothing was changed: %w (release --force deletes it)", revocable)}
	case action == "force-release" && revocable == nil:
		fmt.Fprintln(cmd.ErrOrStderr(), "  (a Curator lock: if its holder made it revocable, 'zklocks revoke' asks it to release first)")
	case action == "revoke":
		fmt.Fprintln(cmd.ErrOrStderr(), revocableHint(d.Data))
	}
	e := lockclient.Expect{Path: node, Czxid: d.Stat.Czxid, EphemeralOwner: d.Stat.EphemeralOwner, Version: d.Stat.Version}
	// Refused by the ACL or for want of a y is an attempt, and every
	// attempt is audited.
	refused := func(err error) error {
		if aerr := actions.Refused(lockcore.ActionKind(action), e, err); aerr != nil {
			return &exitError{code: exitFailed, err: fmt.Errorf("%w; %w", err, aerr)}
		}
		return err
	}
	if err := checkAccess(cmd, conn, action, node); err != nil {
		return refused(err)
	}
	if err := confirm(cmd, fmt.Sprintf(question, model.Printable(node)), yes); err != nil {
		return refused(err)
	}
	if err := act(actions, e); err != nil {
		if errors.Is(err, lockclient.ErrNodeGone) {
			return goneAfterRead(cmd.Context(), conn, o.auditLog, action, e, readAt)
		}
		return &exitError{code: exitFailed, err: err}
	}
	if then == nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "zklocks: %s done: %s\n", action, model.Printable(node))
		return nil
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "zklocks: %s requested: %s\n", action, model.Printable(node))
	return then(actions, e)
}

// revocableHint says what a Curator node's data tells of whether its
// holder made the lock revocable: Curator writes no data into the node of
// a lock made revocable, and by default the client's address into any
// other, so data suggests (but does not prove: a client may set its own
// default data) that the request will be ignored.
func revocableHint(data []byte) string {
	switch string(data) {
	case "":
		return "  (its data is empty, as Curator leaves a lock made revocable)"
	case "__REVOKE__":
		return "  (its data is already __REVOKE__: a revocation was requested before, and the holder has not released)"
	}
	return "  (its data is not empty: Curator leaves a lock made revocable without data, so its holder most likely did not make it revocable and will ignore the request)"
}

// describeNode says what an operator needs before acting: the node, its
// session, that session's client address when a server says, and its age.
func describeNode(ctx context.Context, conn *zkwatch.Conn, node string, st zk.Stat) string {
	client := model.Client{}
	if st.EphemeralOwner != 0 {
		pollCtx, cancel := context.WithTimeout(ctx, 3*time.Second)
		e := zkwatch.NewEnricher(conn.Target().Servers, time.Second)
		e.TLS, e.Admin = conn.TLS(), conn.Admin()
		en := e.Poll(pollCtx)
		cancel()
		client = model.ClientOf(en.Clients, en.Complete, st.EphemeralOwner)
	}
	created := time.UnixMilli(st.Ctime)
	var b strings.Builder
	fmt.Fprintf(&b, "node     %s\n", model.Printable(node))
	fmt.Fprintf(&b, "session  %s\n", model.SessionText(st.EphemeralOwner))
	fmt.Fprintf(&b, "client   %s\n", client)
	fmt.Fprintf(&b, "age      %s (created %s, server clock)\n", model.Duration(time.Since(created)), created.UTC().Format(time.RFC3339))
	fmt.Fprintf(&b, "token    %d (czxid), version %d", st.Czxid, st.Version)
	return b.String()
}

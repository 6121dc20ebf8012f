package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// operateFlags are the flags of commands that change ZooKeeper.
type operateFlags struct {
	auditLog string
}

func (o *operateFlags) register(root *cobra.Command) {
	def, _ := xdgPath("XDG_STATE_HOME", filepath.Join(".local", "state"), "audit.log")
	root.PersistentFlags().StringVar(&o.auditLog, "audit-log", def, "file that every destructive action appends one JSON line to (created 0600)")
}

// openAudit opens the audit log for appending, creating it (0600) and its
// directory (0700) as needed.
func (o *operateFlags) openAudit() (*model.Audit, io.Closer, error) {
	if err := os.MkdirAll(filepath.Dir(o.auditLog), 0o700); err != nil {
		return nil, nil, fmt.Errorf("audit log: %w", err)
	}
	f, err := os.OpenFile(o.auditLog, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("audit log: %w", err)
	}
	return model.NewAudit(f), f, nil
}

// refuseUnapproved refuses a destructive command on a context that
// requires a second person's approval, before anything is read.
func refuseUnapproved(cmd *cobra.Command, s settings) error {
	if why := s.needsApproval(); why != "" {
		return &exitError{code: exitFailed, err: fmt.Errorf("%s refused: %w: %s", cmd.Name(), model.ErrApprovalRequired, why)}
	}
	return nil
}

// operator connects and returns the audited actions on that connection,
// after refusing everything under read-only before any connection is made.
// done closes the connection and the audit log.
func operator(cmd *cobra.Command, s settings, o *operateFlags) (actions *model.Actions, conn *zkwatch.Conn, done func(), err error) {
	if s.readOnly {
		return nil, nil, nil, &exitError{code: exitFailed, err: fmt.Errorf("%s refused: %w: %s", cmd.Name(), model.ErrReadOnly, s.readOnlyWhy())}
	}
	audit, closer, err := o.openAudit()
	if err != nil {
		return nil, nil, nil, &exitError{code: exitFailed, err: err}
	}
	conn, err = s.dial(cmd.Context())
	if err != nil {
		closer.Close()
		return nil, nil, nil, err
	}
	actions = newActions(conn, audit, false, model.ViaCLI)
	if why := s.needsApproval(); why != "" {
		actions.Gate = model.RefusingGate(why)
	}
	return actions, conn, func() { conn.Close(); actions.Close(); closer.Close() }, nil
}

// newActions are the audited actions on conn, as the commands (via
// model.ViaCLI) and the UI (model.ViaUI) use them.
func newActions(conn *zkwatch.Conn, audit *model.Audit, readOnly bool, via string) *model.Actions {
	return &model.Actions{ZK: conn.LockZK(), Audit: audit, ReadOnly: readOnly, Server: conn.Target().String(),
		User: userName(), Host: hostName(), Via: via}
}

// auditUnlessReadOnly opens the audit log, or nothing under read-only, where
// no action can happen; close is always safe to call.
func (o *operateFlags) auditUnlessReadOnly(readOnly bool) (audit *model.Audit, close func(), err error) {
	if readOnly {
		return nil, func() {}, nil
	}
	a, closer, err := o.openAudit()
	if err != nil {
		return nil, nil, &exitError{code: exitFailed, err: err}
	}
	return a, func() { closer.Close() }, nil
}

// userName is the operating-system user, for audit lines.
func userName() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return "unknown"
}

// hostName is this machine's name, for audit lines.
func hostName() string {
	if h, err := os.Hostname(); err == nil && h != "" {
		return h
	}
	return "unknown"
}

// confirm asks on a terminal for an explicit "y"; with yes it does not
// ask. Without a terminal and without yes it refuses: nothing destructive
// happens unconfirmed.
func confirm(cmd *cobra.Command, prompt string, yes bool) error {
	if yes {
		return nil
	}
	in, ok := cmd.InOrStdin().(*os.File)
	if !ok || !isatty.IsTerminal(in.Fd()) {
		return &exitError{code: exitFailed, err: fmt.Errorf("refusing to act without confirmation: no terminal to ask on; pass --yes")}
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "%s [y/N] ", prompt)
	line, _ := bufio.NewReader(in).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
		return &exitError{code: exitFailed, err: fmt.Errorf("not confirmed: nothing was changed")}
	}
	return nil
}

package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/internal/hub"
	"github.com/zklocks/zklocks/internal/serve"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/model/fleet"
	"github.com/zklocks/zklocks/ui"
)

func newServeCommand(g *globalFlags, o *operateFlags) *cobra.Command {
	f := &serveFlags{}
	cmd := &cobra.Command{
		Use:   "serve [flags]",
		Short: "Serve the UI over SSH: one shared watcher per cluster, a UI per person",
		Long: `serve is an SSH server that gives each person who connects (ssh -p 2222 HOST) their
own zklocks UI, and nothing else: no shell, no commands, no forwarding; a client that
asks for no terminal is refused. Each session has its own screen size, colours,
cursor and filter, while every session on a cluster shares one connection and one
watcher: the ensemble pays for one zklocks however many people look. A cluster's
watcher starts with its first session and stops --linger after its last one left.

Keys: public-key authentication only, from --authorized-keys in OpenSSH's format.
A key listed plainly may look (role view); one whose line starts with the option
zklocks-role="operate" may also acquire, force-release, revoke and fence, with
every confirmation and version check of the UI, each action's audit line naming
the SSH user and the key's SHA256 fingerprint. A cert-authority line with
principals="…" admits the SSH user certificates that authority signed, as sshd
would (a user certificate, in its validity window, with a principal the line
allows, its source-address enforced), for the line's role; the audit line then
names the certificate's key id, serial and principal. --revoked-keys lists keys
(and certificates' keys or authorities) refused whatever the keys file says.
Both files are read again when they change (and on SIGHUP); a session whose key
was removed or revoked, or whose role changed, is ended.

Connections not signed in yet (without their session open) are bounded as OpenSSH's
MaxStartups and PerSourceMaxStartups bound them: --max-startups in all,
--per-source-max-startups from one address, more closed as they are accepted; one
not signed in within --login-grace-time is closed.

Recording: with --record-sessions DIR, every session's screen is recorded as an
asciicast v2 file (asciinema play FILE plays it), 0600, named by time, user and key
id, each up to --record-max-size, deleted after --record-max-age; an action's audit
line names the recording and the offset of the key that confirmed it. serve
--list-recordings lists them.

Two-person rule: on a context with approve: 2, an operator's force-release, revoke
or fence is a request that every session is told of; another operator approves it
(:approve, then y) or rejects it (n) within --approve-within, and only then does it
run, audited with both names. The command line refuses such a context's
destructive commands.

Clusters: the config file's contexts (--contexts, or the serve section's, or all
of them); a session starts on --context or the current-context, and :ctx NAME
switches. With --server, that one cluster only.

History: each cluster's shared watcher records what it sees, by default, in
--history (by default $XDG_STATE_HOME/zklocks/history/serve/CONTEXT, the context's name), kept for
--history-max-age within --history-max-size as the exporter's is, while the watcher
runs; in any session, R replays its last hour (q goes back to the live UI), and
zklocks replay DIR or postmortem --recording DIR read it. Each watcher follows this host's
audit log (--audit-log, where the sessions' actions go too), so that a force-release made
from the CLI on this host is told, and kept, as one.

The serve section of the config file gives listen, authorized-keys, revoked-keys,
host-key, contexts, max-sessions, idle-timeout, linger, approve-within,
max-startups, per-source-max-startups, login-grace-time, record-sessions,
record-max-size and record-max-age (flags win); serve --check
validates them, and the keys file, without serving. See docs/serve.md.

` + exitCodesHelp(),
		Example: `  zklocks serve --authorized-keys /etc/zklocks/authorized_keys
  zklocks serve --listen 0.0.0.0:2222 --host-key /var/lib/zklocks/ssh_host_ed25519_key --contexts prod,staging
  zklocks serve --check`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runServe(cmd, g, o, f)
		},
	}
	f.register(cmd.Flags())
	return cmd
}

// servePlan is what serve would serve, worked out from the flags and the
// config file without connecting.
type servePlan struct {
	cfg      serveConfig
	keys     *serve.KeyFile
	revoked  *serve.RevokedKeys
	offered  []string // contexts; empty with --server or no config file
	start    string   // the context a session starts on
	noSwitch string
	// approve are the contexts under the two-person rule (approve: 2).
	approve []string
}

// shown are the contexts the UI lists for :ctx: those offered, or with
// --server the file's, which :ctx then says it cannot switch to.
func (p servePlan) shown(s settings) []string {
	if len(p.offered) > 0 {
		return p.offered
	}
	return s.file.names()
}

func planServe(cmd *cobra.Command, g *globalFlags, f *serveFlags) (servePlan, error) {
	s, err := g.load()
	if err != nil {
		return servePlan{}, err
	}
	p := servePlan{cfg: f.merge(cmd.Flags(), s.file)}
	if err := p.cfg.check(s.file); err != nil {
		return servePlan{}, &exitError{code: exitUsage, err: err}
	}
	if p.keys, err = serve.OpenKeyFile(p.cfg.AuthorizedKeys); err != nil {
		return servePlan{}, &exitError{code: exitUsage, err: err}
	}
	if p.cfg.RevokedKeys != "" {
		if p.revoked, err = serve.OpenRevokedKeys(p.cfg.RevokedKeys); err != nil {
			return servePlan{}, &exitError{code: exitUsage, err: err}
		}
	}
	switch {
	case s.given("server"):
		p.noSwitch = "--server is given: this server shows that one cluster"
	case len(s.file.Contexts) == 0:
		p.noSwitch = "the config file defines no contexts"
	default:
		p.offered = p.cfg.Contexts
		if len(p.offered) == 0 {
			p.offered = s.file.names()
		}
		p.start = s.context
		if p.start == "" {
			p.start = p.offered[0]
		}
		if !slices.Contains(p.offered, p.start) {
			return servePlan{}, &exitError{code: exitUsage, err: fmt.Errorf("context %q is not among those offered (%v)", p.start, p.offered)}
		}
		// Each context offered must load as --context would.
		for _, name := range p.offered {
			cs, err := g.loadContext(name)
			if err != nil {
				return servePlan{}, &exitError{code: exitUsage, err: fmt.Errorf("context %s: %w", name, err)}
			}
			if cs.approve >= 2 {
				p.approve = append(p.approve, name)
			}
		}
	}
	return p, nil
}

func runServe(cmd *cobra.Command, g *globalFlags, o *operateFlags, f *serveFlags) error {
	p, err := planServe(cmd, g, f)
	if err != nil {
		return err
	}
	s, err := g.load()
	if err != nil {
		return err
	}
	if f.check {
		printServePlan(cmd.OutOrStdout(), p, s)
		return nil
	}
	if f.listRecordings {
		return listRecordings(cmd.OutOrStdout(), p.cfg.RecordSessions)
	}
	audit, closeAudit, err := o.auditUnlessReadOnly(s.readOnly)
	if err != nil {
		return err
	}
	defer closeAudit()
	logger := log.New(cmd.ErrOrStderr(), "zklocks serve: ", log.LstdFlags)
	// One fleet screen for every session: its polls start at the first
	// look and go on until zklocks serve stops.
	var fleetSrc ui.FleetSource
	if len(p.offered) > 0 {
		fleetSrc = fleetSource{Poller: fleet.NewPoller(p.offered, fleetProbe(g, contextThresholds, false), fleet.DefaultInterval), ctx: cmd.Context()}
	}
	srv, err := serve.New(serve.Config{
		Fleet: fleetSrc, NoFleet: p.noSwitch,
		Listen: p.cfg.Listen, HostKey: p.cfg.HostKey, Keys: p.keys, Revoked: p.revoked,
		Contexts: p.shown(s), Default: p.start, NoSwitch: p.noSwitch,
		ReadOnly: s.readOnly, MaxSessions: p.cfg.MaxSessions, IdleTimeout: p.cfg.IdleTimeout, Linger: p.cfg.Linger,
		Dial: serveDialer(g, o, p, f, cmd.Root().Version, logger), Audit: audit, Log: logger, Version: cmd.Root().Version,
		MaxStartups: p.cfg.MaxStartups, PerSourceMaxStartups: p.cfg.PerSourceMaxStartups, LoginGraceTime: p.cfg.LoginGraceTime,
		RecordDir: p.cfg.RecordSessions, RecordMaxSize: int64(p.cfg.recordMaxSize), RecordMaxAge: time.Duration(p.cfg.recordMaxAge),
	})
	if err != nil {
		return &exitError{code: exitFailed, err: err}
	}
	ctx, stop := context.WithCancel(cmd.Context())
	defer stop()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	go func() {
		for {
			select {
			case <-hup:
				srv.ReloadKeys()
			case <-ctx.Done():
				return
			}
		}
	}()
	logger.Printf("listening on %s, %d keys admitted, contexts %v", p.cfg.Listen, p.keys.Len(), p.offered)
	if err := srv.ListenAndServe(ctx); err != nil {
		return &exitError{code: exitFailed, err: err}
	}
	logger.Printf("stopped")
	return nil
}

// serveDialer connects to a context as --context NAME would (or, with
// --server or no contexts, as the flags say), watching it as the UI does.
func serveDialer(g *globalFlags, o *operateFlags, p servePlan, f *serveFlags, version string, logger *log.Logger) hub.Dialer {
	return func(ctx context.Context, name string) (hub.Cluster, error) {
		var s settings
		var err error
		if len(p.offered) == 0 {
			s, err = g.load()
		} else {
			s, err = g.loadContext(name)
		}
		if err != nil {
			return hub.Cluster{}, err
		}
		if s.logFile == "-" {
			return hub.Cluster{}, errNeedsFile
		}
		conn, err := s.dial(ctx)
		if err != nil {
			var ee *exitError
			if errors.As(err, &ee) {
				err = ee.err
			}
			return hub.Cluster{}, err
		}
		cfg := s.watchConfig()
		cfg.Analysis = s.analysis(f.longHeld)
		cfg.ReadLater = true
		hf := f.hist.forCluster("serve", serveHistoryName(p.offered, name, s))
		hist, err := hf.open(s, version, func(err error) { logger.Printf("%s", model.Printable(err.Error())) })
		switch {
		case err != nil:
			// The UI goes on without its history, said once per start.
			logger.Printf("context %q: no history: %s", model.Printable(name), model.Printable(err.Error()))
		case hist != nil:
			logger.Printf("context %q: keeping the history in %s (max age %s, max size %s)", model.Printable(name),
				model.Printable(hist.Dir()), hf.maxAge.String(), hf.maxSize.String())
		}
		follow := func(ctx context.Context, tell func(lockcore.Action)) {
			followAudit(ctx, o.auditLog, cfg.Roots, tell, func(err error) {
				logger.Printf("context %q: %s", model.Printable(name), model.Printable(err.Error()))
			})
		}
		return hub.Cluster{Conn: conn, Watch: cfg, ReadOnly: s.readOnly, Timeout: s.timeout,
			Approve: s.approve >= 2, ApproveWithin: p.cfg.ApproveWithin,
			NewSession: ownSessions(conn, s.timeout), History: hist, Follow: follow,
			HistoryFailed: func(err error) {
				logger.Printf("context %q: the history stopped recording: %s", model.Printable(name), model.Printable(err.Error()))
			}}, nil
	}
}

// serveHistoryName names a cluster's history directory under serve's: a
// context's name, or, for a cluster given by --server (no contexts
// offered), its connect string and roots.
func serveHistoryName(offered []string, name string, s settings) string {
	if len(offered) == 0 || name == "" {
		return clusterDirName(s.server, s.roots)
	}
	return name
}

// listRecordings is serve --list-recordings' answer: one recording a
// line, oldest first, with when it began, how long it ran, its size and
// who it was.
func listRecordings(w io.Writer, dir string) error {
	if dir == "" {
		return &exitError{code: exitUsage, err: errors.New("--list-recordings: no --record-sessions directory (or record-sessions in the serve section)")}
	}
	recs, err := serve.ListRecordings(dir)
	if err != nil {
		return &exitError{code: exitFailed, err: fmt.Errorf("session recordings: %w", err)}
	}
	if len(recs) == 0 {
		fmt.Fprintf(w, "no session recordings in %s\n", dir)
		return nil
	}
	for _, r := range recs {
		if r.Err != nil {
			fmt.Fprintf(w, "%s  unreadable: %s\n", r.File, model.Printable(r.Err.Error()))
			continue
		}
		fmt.Fprintf(w, "%s  %8s  %9d B  %s\n    %s\n", r.Start.UTC().Format(time.RFC3339), model.Duration(r.Duration.Round(time.Second)),
			r.Size, r.File, model.Printable(r.Title))
	}
	return nil
}

// printAuthorities lists the certificate authorities by role, operate
// first, each with the principals its line allows.
func printAuthorities(w io.Writer, cas []serve.Authority) {
	label := "authorities      "
	for _, role := range []serve.Role{serve.RoleOperate, serve.RoleView} {
		for _, ca := range cas {
			if ca.Role != role {
				continue
			}
			principals := "principals " + strings.Join(ca.Principals, ", ")
			switch {
			case ca.Principals == nil:
				principals = "principal: the SSH user name"
			case len(ca.Principals) == 0:
				principals = "no principals (admits nobody)"
			}
			fmt.Fprintf(w, "%s%-8s %s (%q, line %d) %s\n", label, string(role)+":", ca.Fingerprint, model.Printable(ca.Comment), ca.Line, principals)
			label = "                 "
		}
	}
}

// printServePlan is serve --check's answer.
func printServePlan(w io.Writer, p servePlan, s settings) {
	view, operate := p.keys.Roles()
	fmt.Fprintf(w, "listen           %s\n", p.cfg.Listen)
	fmt.Fprintf(w, "host key         %s\n", p.cfg.HostKey)
	fmt.Fprintf(w, "authorized keys  %s: %d view, %d operate\n", p.cfg.AuthorizedKeys, view, operate)
	printAuthorities(w, p.keys.Authorities())
	if p.revoked != nil {
		fmt.Fprintf(w, "revoked keys     %s: %d listed\n", p.revoked.Path(), p.revoked.Len())
	}
	if len(p.offered) > 0 {
		fmt.Fprintf(w, "contexts         %v (sessions start on %s)\n", p.offered, p.start)
	} else {
		fmt.Fprintf(w, "server           %s (%s)\n", model.Printable(s.server), p.noSwitch)
	}
	fmt.Fprintf(w, "max sessions     %d, idle timeout %s, watchers linger %s\n", p.cfg.MaxSessions, p.cfg.IdleTimeout, p.cfg.Linger)
	fmt.Fprintf(w, "not signed in    at most %d, %d from one address, each for %s\n", p.cfg.MaxStartups, p.cfg.PerSourceMaxStartups, p.cfg.LoginGraceTime)
	if p.cfg.RecordSessions != "" {
		fmt.Fprintf(w, "recordings       %s: every session, each up to %s, kept %s\n", p.cfg.RecordSessions, &p.cfg.recordMaxSize, &p.cfg.recordMaxAge)
	}
	if len(p.approve) > 0 {
		fmt.Fprintf(w, "two-person rule  %v: each force-release, revoke and fence waits up to %s for another operator's approval\n",
			p.approve, p.cfg.ApproveWithin)
	}
	if s.readOnly {
		fmt.Fprintln(w, "read-only        every session, whatever its key's role")
	}
	fmt.Fprintln(w, "ok: the configuration is valid (nothing was connected to)")
}

package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

func newDoctorCommand(g *globalFlags) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Say what each server answers, what zklocks can show because of it, and the fix for each gap",
		Long: `doctor asks every ensemble member, once, each four-letter word zklocks uses
(srvr, cons, wchs, wchc, wchp, dump, mntr) on its client port, and each AdminServer
command that stands for one (server_stats, connections, watch_summary, watches,
watches_by_path, dump, monitor) at --admin-port over --admin-scheme. It reads no more
of each answer than it takes to know it is one.

Then, for each member, it says what zklocks can show (clients of sessions and
disconnected holders, the servers' watch table, finding locks by dump, when a
disconnected session expires), which way each comes, and for each gap the one-line
fix: the 4lw.commands.whitelist line for zoo.cfg, or the AdminServer's port. Last,
whether the member can hold the persistent recursive watch that finds a new lock
anywhere at once (ZooKeeper 3.6 and later, by its release).

First it says who this session is: the identities the server gives it (whoAmI, ZooKeeper
3.7+; from the credentials given on older servers), whether the server took it for its
super user, and whether the cluster requires authentication of every session (it opens a
second session, without credentials, to see whether the server closes it).

It also asks each member where it keeps its data (conf's dataDir and dataLogDir) and,
when that directory is on this host, how much history its transaction logs hold (the
first and last zxid and their times, the number of logs and snapshots): what
zklocks postmortem --recording DIR can tell of, run on that host.

` + exitCodesHelp(),
		Example: `  zklocks doctor --server zk1:2181,zk2:2181,zk3:2181
  zklocks doctor --admin-port 9090 --admin-scheme https --admin-ca ca.pem --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := g.load()
			if err != nil {
				return err
			}
			conn, err := s.dialUnchecked(cmd.Context())
			if err != nil {
				return err
			}
			defer conn.Close()
			auth := diagnoseAuth(cmd.Context(), conn, s)
			probes, ensemble := conn.ProbeMembers(cmd.Context())
			d := diagnosis{probes: probes, missing: ensemble.Missing, data: readMemberData(cmd.Context(), conn, probes), auth: auth}
			return write(cmd, asJSON, d.writeJSON, d.writeText)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON for scripts")
	return cmd
}

// diagnosis is what doctor found.
type diagnosis struct {
	probes  []zkwatch.Probe
	missing []string
	// data is, by probe, where the member keeps its data and what of it
	// this host can read.
	data []memberData
	// auth is the session's identities and whether the cluster requires
	// authentication; nil leaves the block out.
	auth *doctorAuth
}

func answerText(err error) string {
	if err == nil {
		return "answered"
	}
	return shortErrText(err)
}

func shortErrText(err error) string {
	if errorIsRefused(err) {
		return "refused (not in 4lw.commands.whitelist)"
	}
	return model.Plain(err.Error())
}

func (d diagnosis) writeText(w io.Writer) error {
	var b strings.Builder
	var fixes fixList
	if d.auth != nil {
		d.auth.writeText(&b)
	}
	for i, p := range d.probes {
		if i > 0 {
			b.WriteString("\n")
		}
		mode := p.Mode
		if mode == "" {
			mode = "role unknown"
		}
		fmt.Fprintf(&b, "%s (%s)\n", model.Printable(p.Member), mode)
		var ok, refused, failed []string
		for _, word := range zkwatch.ProbeWords {
			switch err := p.Words[word]; {
			case err == nil:
				ok = append(ok, word)
			case errorIsRefused(err):
				refused = append(refused, word)
			default:
				failed = append(failed, word+" ("+shortErrText(err)+")")
			}
		}
		fmt.Fprintf(&b, "  four-letter words  answers: %s", listOrNone(ok))
		if len(refused) > 0 {
			fmt.Fprintf(&b, "; refuses: %s", strings.Join(refused, ", "))
		}
		if len(failed) > 0 {
			fmt.Fprintf(&b, "; failed: %s", strings.Join(failed, ", "))
		}
		b.WriteString("\n")
		b.WriteString("  AdminServer        " + adminText(p) + "\n")
		if i < len(d.data) {
			b.WriteString(d.data[i].text())
		}
		b.WriteString("  zklocks can show\n")
		for _, c := range zkwatch.Capabilities {
			via, why := p.Way(c)
			switch {
			case via == words.ViaWord:
				fmt.Fprintf(&b, "    ✓ %s  (four-letter word)\n", c.Name)
			case via == words.ViaAdmin:
				fmt.Fprintf(&b, "    ✓ %s  (AdminServer)\n", c.Name)
			case d.fromLeader(p, c):
				// Only the leader gives it, and the leader does: nothing
				// is missing on a follower.
				fmt.Fprintf(&b, "    ✓ %s  (from the leader, %s)\n", c.Name, model.Printable(d.leader().Member))
			default:
				fmt.Fprintf(&b, "    ✗ %s: %s\n", c.Name, model.Printable(why))
				fixes.add(p.Fix(c), p.Member)
			}
		}
		switch ok, known, why := p.PersistentWatch(); {
		case ok:
			fmt.Fprintf(&b, "    ✓ %s  (%s)\n", zkwatch.PersistentWatchName, model.Printable(why))
		case known:
			fmt.Fprintf(&b, "    ✗ %s: %s\n", zkwatch.PersistentWatchName, model.Printable(why))
			fixes.add("upgrade to ZooKeeper 3.6 or later", p.Member)
		default:
			fmt.Fprintf(&b, "    ? %s: %s\n", zkwatch.PersistentWatchName, model.Printable(why))
		}
	}
	for _, m := range d.missing {
		fmt.Fprintf(&b, "\nnot asked: %s\n", model.Printable(m))
	}
	fixes.write(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

// leader is the probe of the member that says it leads (or stands
// alone); nil when none does.
func (d diagnosis) leader() *zkwatch.Probe {
	for i, p := range d.probes {
		if p.Mode == "leader" || p.Mode == "standalone" {
			return &d.probes[i]
		}
	}
	return nil
}

// fromLeader reports whether c, which p does not give, is one only the
// leader gives, and the leader does.
func (d diagnosis) fromLeader(p zkwatch.Probe, c zkwatch.Capability) bool {
	if !c.LeaderOnly || p.Mode == "leader" || p.Mode == "standalone" {
		return false
	}
	l := d.leader()
	if l == nil {
		return false
	}
	via, _ := l.Way(c)
	return via != ""
}

// fixList is each distinct fix doctor gives, once, with the members it
// is for, in the order first met.
type fixList struct {
	order   []string
	members map[string][]string
}

func (f *fixList) add(fix, member string) {
	if fix == "" {
		return
	}
	if f.members == nil {
		f.members = map[string][]string{}
	}
	if _, ok := f.members[fix]; !ok {
		f.order = append(f.order, fix)
	}
	if ms := f.members[fix]; len(ms) == 0 || ms[len(ms)-1] != member {
		f.members[fix] = append(ms, member)
	}
}

func (f *fixList) write(b *strings.Builder) {
	if len(f.order) == 0 {
		return
	}
	b.WriteString("\nto fix the ✗ above:\n")
	for _, fix := range f.order {
		ms := make([]string, len(f.members[fix]))
		for i, m := range f.members[fix] {
			ms[i] = model.Printable(m)
		}
		fmt.Fprintf(b, "  on %s: %s\n", strings.Join(ms, ", "), model.Printable(fix))
	}
}

// adminText says where the AdminServer was asked and what it answered.
func adminText(p zkwatch.Probe) string {
	if len(p.Admin) == 0 {
		return "not asked (--admin-port=off)"
	}
	tls := "HTTP"
	if p.AdminTLS {
		tls = "HTTPS"
	}
	var ok, failed []string
	for _, word := range zkwatch.ProbeWords {
		command, _ := words.AdminCommand(word)
		switch err := p.Admin[word]; {
		case err == nil:
			ok = append(ok, command)
		case errorIsUnavailable(err):
			// "no AdminServer at URL: why": the URL is said already.
			why := strings.TrimPrefix(shortErrText(err), "no AdminServer at ")
			if _, after, ok := strings.Cut(why, ": "); ok {
				why = after
			}
			return fmt.Sprintf("%s (%s): none (%s)", p.AdminURL, tls, model.Printable(why))
		default:
			failed = append(failed, command+" ("+model.Printable(shortErrText(err))+")")
		}
	}
	text := fmt.Sprintf("%s (%s): answers %s", p.AdminURL, tls, listOrNone(ok))
	if len(failed) > 0 {
		text += "; failed: " + strings.Join(failed, ", ")
	}
	return text
}

func listOrNone(words []string) string {
	if len(words) == 0 {
		return "none"
	}
	return strings.Join(words, ", ")
}

// doctorJSON is doctor --json: a contract with scripts.
type doctorJSON struct {
	Session *sessionJSON `json:"session,omitempty"`
	Members []memberJSON `json:"members"`
	Missing []string     `json:"not_asked,omitempty"`
}

type memberJSON struct {
	Member       string            `json:"member"`
	Mode         string            `json:"mode"`
	Version      string            `json:"version,omitempty"`
	Words        map[string]string `json:"four_letter_words"`
	Admin        *adminJSON        `json:"admin_server"`
	Capabilities []capabilityJSON  `json:"capabilities"`
	Data         *dataJSON         `json:"data,omitempty"`
	// Persistent is whether the member can hold the persistent recursive
	// watch: true, false, or null when its release is unknown.
	Persistent *bool  `json:"persistent_watch"`
	PersistWhy string `json:"persistent_watch_why"`
}

type adminJSON struct {
	URL      string            `json:"url"`
	TLS      bool              `json:"tls"`
	Commands map[string]string `json:"commands"`
}

type capabilityJSON struct {
	Name string  `json:"name"`
	Via  *string `json:"via"` // "4lw", "admin", "leader" (a follower's, from the leader), or null
	Why  string  `json:"why,omitempty"`
	Fix  string  `json:"fix,omitempty"`
}

func (d diagnosis) writeJSON(w io.Writer) error {
	out := doctorJSON{Members: []memberJSON{}, Missing: d.missing}
	if d.auth != nil {
		out.Session = d.auth.json()
	}
	for i, p := range d.probes {
		m := memberJSON{Member: p.Member, Mode: p.Mode, Version: p.Version, Words: map[string]string{}}
		if ok, known, why := p.PersistentWatch(); known {
			m.Persistent, m.PersistWhy = &ok, why
		} else {
			m.PersistWhy = why
		}
		for word, err := range p.Words {
			m.Words[word] = answerText(err)
		}
		if len(p.Admin) > 0 {
			m.Admin = &adminJSON{URL: p.AdminURL, TLS: p.AdminTLS, Commands: map[string]string{}}
			for word, err := range p.Admin {
				command, _ := words.AdminCommand(word)
				m.Admin.Commands[command] = answerText(err)
			}
		}
		for _, c := range zkwatch.Capabilities {
			via, why := p.Way(c)
			cj := capabilityJSON{Name: c.Name, Why: why}
			switch {
			case via != "":
				v := string(via)
				cj.Via = &v
			case d.fromLeader(p, c):
				v := "leader"
				cj.Via, cj.Why = &v, "only the leader gives it, and "+d.leader().Member+" does"
			default:
				cj.Fix = p.Fix(c)
			}
			m.Capabilities = append(m.Capabilities, cj)
		}
		if i < len(d.data) {
			m.Data = d.data[i].json()
		}
		out.Members = append(out.Members, m)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func errorIsRefused(err error) bool { return errors.Is(err, words.ErrFourLetterRefused) }

func errorIsUnavailable(err error) bool { return errors.Is(err, words.ErrAdminUnavailable) }

package zkwatch

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/zklocks/zklocks/zkwatch/words"
	"slices"
	"strings"
	"sync"
)

// Probe is what one member answers, each way: the four-letter words
// zklocks uses and the AdminServer commands that stand for them.
type Probe struct {
	Member string
	// Mode is the member's role (srvr, or server_stats), "" when neither
	// said; Version its release ("3.8.0"), likewise.
	Mode, Version string
	// Words holds, by word, nil when the member answered it, else why not
	// (wrapping words.ErrFourLetterRefused when its whitelist refused it).
	Words map[string]error
	// AdminURL is where its AdminServer was asked (the commands' base),
	// AdminTLS whether over HTTPS, and Admin, by the word each command
	// stands for, nil when it answered, else why not (wrapping
	// words.ErrAdminUnavailable when nothing answers there as an AdminServer).
	// Admin is empty when asking the AdminServer is turned off.
	AdminURL string
	AdminTLS bool
	Admin    map[string]error
}

// ProbeWords are the words a probe asks, in the order reported.
var ProbeWords = []string{"srvr", "cons", "wchs", "wchc", "wchp", "dump", "mntr"}

// errProbed stops reading an answer once it is known to be one.
var errProbed = errors.New("zkwatch: probed")

// ProbeMembers asks every ensemble member (see Members) each of ProbeWords
// both ways, reading no more of each answer than it takes to know it is
// one: the large ones (wchc, dump) cost the member little more than their
// first bytes. Members are asked concurrently.
func (c *Conn) ProbeMembers(ctx context.Context) ([]Probe, Ensemble) {
	ensemble := c.Members(ctx)
	probes := make([]Probe, len(ensemble.Servers))
	var wg sync.WaitGroup
	for i, m := range ensemble.Servers {
		wg.Go(func() { probes[i] = c.probe(ctx, m) })
	}
	wg.Wait()
	return probes, ensemble
}

func (c *Conn) probe(ctx context.Context, member string) Probe {
	p := Probe{Member: member, Words: map[string]error{}, Admin: map[string]error{}}
	for _, w := range ProbeWords {
		wctx, cancel := context.WithTimeout(ctx, defaultWordTimeout)
		var head string
		_, err := words.FourLetterStream(wctx, member, w, c.tls, nil, func(r *bufio.Reader) error {
			if w == "srvr" {
				return words.TextReader(&head)(r)
			}
			return errProbed
		})
		cancel()
		if errors.Is(err, errProbed) {
			err = nil
		}
		p.Words[w] = err
		if w == "srvr" && err == nil {
			if st, perr := words.ParseSrvr(head); perr == nil {
				p.Mode, p.Version = st.Mode, st.Version
			}
		}
	}
	if !c.admin.Enabled() {
		return p
	}
	p.AdminURL, p.AdminTLS = strings.TrimSuffix(c.admin.URL(member, ""), "/"), c.admin.HTTPS
	var st words.ServerStatus
	for _, w := range ProbeWords {
		wctx, cancel := context.WithTimeout(ctx, defaultWordTimeout)
		_, err := words.AdminStream(wctx, c.admin, member, w, nil, func(key string, dec *json.Decoder) (bool, error) {
			if w == "srvr" {
				return words.AdminStatus(&st)(key, dec)
			}
			return true, errProbed
		})
		cancel()
		if errors.Is(err, errProbed) {
			err = nil
		}
		p.Admin[w] = err
		if errors.Is(err, words.ErrAdminUnavailable) {
			// Nothing there: the other commands would say the same.
			for _, rest := range ProbeWords {
				if _, asked := p.Admin[rest]; !asked {
					p.Admin[rest] = err
				}
			}
			break
		}
	}
	if p.Mode == "" {
		p.Mode = st.Mode
	}
	if p.Version == "" {
		p.Version = st.Version
	}
	return p
}

// PersistentWatchName is what the persistent recursive watch shows, as
// doctor names it beside Capabilities.
const PersistentWatchName = "new locks at once anywhere (a persistent recursive watch per root)"

// PersistentWatch says whether the member can hold the persistent
// recursive watch discovery sets (ZooKeeper 3.6 and later): ok true or
// false by its release, known false when neither srvr nor the AdminServer
// said it, with why in words.
func (p Probe) PersistentWatch() (ok, known bool, why string) {
	switch {
	case p.Version == "":
		return false, false, "release unknown (srvr refused and no AdminServer said it): zklocks tries addWatch on a session of its own and falls back to dump and walk if it is refused"
	case atLeast(p.Version, 3, 6):
		return true, true, "ZooKeeper " + p.Version
	}
	return false, true, "ZooKeeper " + p.Version + " has none (3.6 and later): new locks away from known ones are found by dump and walk"
}

// Capability is something zklocks shows that needs a server's answer.
type Capability struct {
	// Name says what it shows; Words the words that give it (the first
	// is enough, the others stand in for it).
	Name  string
	Words []string
	// LeaderOnly: only the leader's (or a standalone server's) answer
	// gives it, as with dump's expiry times.
	LeaderOnly bool
}

// Capabilities are what zklocks shows beyond the tree itself.
var Capabilities = []Capability{
	{Name: "clients of sessions, disconnected holders", Words: []string{"cons"}},
	{Name: "the servers' watch table (real watches, hidden waiters)", Words: []string{"wchc", "wchp"}},
	{Name: "the watch-table budget (--watches=auto)", Words: []string{"wchs"}},
	{Name: "finding new locks by dump (else by walking the tree)", Words: []string{"dump"}},
	{Name: "when a disconnected session expires", Words: []string{"dump"}, LeaderOnly: true},
	{Name: "member status and role", Words: []string{"srvr"}},
}

// Way says how a probed member gives a capability: ViaWord, ViaAdmin, or
// "" with why not.
func (p Probe) Way(c Capability) (words.Via, string) {
	if c.LeaderOnly && p.Mode != "" && p.Mode != "leader" && p.Mode != "standalone" {
		return "", "only the leader's dump has expiry times (this member is a " + p.Mode + ")"
	}
	for _, w := range c.Words {
		if err, ok := p.Words[w]; ok && err == nil {
			return words.ViaWord, ""
		}
	}
	for _, w := range c.Words {
		if err, ok := p.Admin[w]; ok && err == nil {
			return words.ViaAdmin, ""
		}
	}
	w := c.Words[0]
	why := w + " refused"
	if err := p.Words[w]; !errors.Is(err, words.ErrFourLetterRefused) {
		why = fmt.Sprintf("%s failed (%s)", w, shortErr(err))
	}
	command, _ := words.AdminCommand(w)
	switch err := p.Admin[w]; {
	case len(p.Admin) == 0:
		why += ", AdminServer not asked (--admin-port=off)"
	case errors.Is(err, words.ErrAdminElsewhere), errors.Is(err, words.ErrAdminUntied), errors.Is(err, words.ErrAdminAuth):
		why += ", " + strings.TrimPrefix(err.Error(), "zkwatch: ")
	case errors.Is(err, words.ErrAdminUnavailable):
		why += ", no AdminServer"
	case err != nil:
		why += fmt.Sprintf(", AdminServer's %s failed (%s)", command, shortErr(err))
	}
	return "", why
}

// Fix is the one-line fix for a capability a member does not give.
func (p Probe) Fix(c Capability) string {
	if c.LeaderOnly && p.Mode != "leader" && p.Mode != "standalone" && p.Mode != "" {
		return "" // the leader gives it
	}
	var fixes []string
	if refused := slices.ContainsFunc(c.Words, func(w string) bool { return errors.Is(p.Words[w], words.ErrFourLetterRefused) }); refused {
		fixes = append(fixes, "add "+words.WhitelistFix+" to zoo.cfg")
	}
	switch err := p.Admin[c.Words[0]]; {
	case errors.Is(err, words.ErrAdminUnavailable) || len(p.Admin) == 0:
		fixes = append(fixes, words.AdminFixFor(err))
	case err != nil:
		fixes = append(fixes, "check the AdminServer ("+shortErr(err)+")")
	}
	return strings.Join(fixes, ", or ")
}

func shortErr(err error) string {
	if err == nil {
		return "answered"
	}
	if errors.Is(err, words.ErrFourLetterRefused) {
		return "refused by 4lw.commands.whitelist"
	}
	return strings.TrimPrefix(err.Error(), "zkwatch: ")
}

// DataDirs is where a member keeps its snapshots (DataDir) and
// transaction logs (DataLogDir), each a version-2/ directory, as its conf
// word says.
type DataDirs struct {
	DataDir    string
	DataLogDir string
}

// MemberDataDirs asks member, by the conf four-letter word, where it keeps
// its data.
func (c *Conn) MemberDataDirs(ctx context.Context, member string) (DataDirs, error) {
	wctx, cancel := context.WithTimeout(ctx, defaultWordTimeout)
	defer cancel()
	out, err := words.FourLetterTLS(wctx, member, "conf", c.tls)
	if err != nil {
		return DataDirs{}, err
	}
	return ParseConfDirs(out), nil
}

// ParseConfDirs reads dataDir and dataLogDir from a conf answer.
func ParseConfDirs(conf string) DataDirs {
	var d DataDirs
	for _, line := range strings.Split(conf, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		switch {
		case !ok:
		case k == "dataDir":
			d.DataDir = v
		case k == "dataLogDir":
			d.DataLogDir = v
		}
	}
	return d
}

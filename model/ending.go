package model

import (
	"strings"
	"time"

	"github.com/zklocks/zklocks/lockcore"

	"github.com/zklocks/zklocks/lockclient"
)

// Ending is what the event log says of how one contender's node went: an
// operator who comes second is told it instead of a bare "node gone".
type Ending struct {
	At time.Time
	// Seen: At is when zklocks saw the node gone; it went no later.
	Seen    bool
	Change  Change // Released or Left
	EndedBy Ender
	// Action is what the operator did, when an operator of this zklocks
	// (or of the recording replayed) ended it.
	Action *lockcore.Action
}

// Present reports whether the contender at nodePath with that token (its
// czxid) is still one of lock's contenders as last read.
func (s *State) Present(lock, nodePath string, token int64) bool {
	l := s.Locks[lock]
	if l == nil {
		return false
	}
	for _, p := range l.Participants {
		if p.Path == nodePath && (token == 0 || p.Token == 0 || p.Token == token) {
			return true
		}
	}
	return false
}

// EndingOf finds the log's entry for the end of the contender at nodePath
// with that token, newest first; false when the log has none (the node's
// end was not seen yet, or happened while its lock was not watched).
func (g *EventLog) EndingOf(nodePath string, token int64) (Ending, bool) {
	for i := len(g.History) - 1; i >= 0; i-- {
		h := &g.History[i]
		if (h.Change != Released && h.Change != Left) || !h.IsNode(nodePath) {
			continue
		}
		if token != 0 && h.Token != 0 && h.Token != token {
			continue
		}
		return Ending{At: h.At, Seen: h.Seen, Change: h.Change, EndedBy: h.EndedBy, Action: h.Action}, true
	}
	return Ending{}, false
}

// Words says who or what ended the node and when, in a phrase that
// follows the node's name ("… went at …"), short enough for a status
// line; clock formats a time as the caller shows times.
func (e Ending) Words(clock func(time.Time) string) string {
	at := "at " + clock(e.At)
	if e.Seen {
		at = "by " + clock(e.At) // seen gone then: it went no later
	}
	switch e.EndedBy {
	case EndedByOperator:
		verb := "was force-released "
		if e.Action != nil && e.Action.Kind == lockcore.ActionFence {
			verb = "was fenced "
		}
		return verb + ActorWords(e.Action) + " " + at
	case EndedByExpiry:
		return "went " + at + " with its session, which expired"
	case EndedByClose:
		return "went " + at + ": its client closed its session"
	case EndedBySessionEnd:
		return "went " + at + " with its session (expired or closed by its client)"
	case EndedByUnknown:
		return "went " + at + "; whether its session outlived it is not known yet"
	case EndedByOther, EndedByOwner:
		// What a transaction log or our own lock client says.
		by := "another session than its own"
		if e.EndedBy == EndedByOwner {
			by = "its own session"
		}
		return "was deleted " + at + " by " + by
	}
	// ZooKeeper does not record who deletes a node: both are said.
	return "went " + at + ", its session still connected: its client or another operator deleted it"
}

// ActorWords names who made an action: "by sre from the UI on host-a";
// "from this zklocks" when it does not say.
func ActorWords(a *lockcore.Action) string {
	if a == nil || a.User == "" {
		return "from this zklocks"
	}
	out := "by " + Printable(a.User)
	switch a.Via {
	case ViaUI:
		out += " from the UI"
	case ViaCLI:
		out += " from the command line"
	case ViaSSH:
		out += " over SSH (zklocks serve)"
		if a.Host != "" {
			out += " from " + Printable(a.Host)
		}
		return out
	}
	if a.Host != "" {
		out += " on " + Printable(a.Host)
	}
	return out
}

// packagePrefixes are the prefixes Go packages put on their errors; an
// operator reads the words after them.
var packagePrefixes = []string{"lockcore: ", "zkwatch: ", "zk: ", "model: ", "recording: ", "txnlog: ", "zkserver: "}

// Plain drops package prefixes ("lockcore: ", "zk: ", …) from text meant
// for an operator: at its start and wherever one follows a space or a
// parenthesis, as wrapped errors place them.
func Plain(text string) string {
	if !strings.Contains(text, ": ") {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); {
		if i == 0 || text[i-1] == ' ' || text[i-1] == '(' {
			if p := prefixAt(text[i:]); p != "" {
				i += len(p)
				continue
			}
		}
		b.WriteByte(text[i])
		i++
	}
	return b.String()
}

func prefixAt(s string) string {
	for _, p := range packagePrefixes {
		if strings.HasPrefix(s, p) {
			return p
		}
	}
	return ""
}

// GoneText is what an action refused because its node was gone says:
// the node, and who or what ended it and when as far as the log knows.
// settled is false while the log has no end for it, or one whose cause a
// later members' answer may still tell (EndedByUnknown).
func (g *EventLog) GoneText(e lockclient.Expect, clock func(time.Time) string) (text string, settled bool) {
	end, ok := g.EndingOf(e.Path, e.Czxid)
	if !ok {
		return ShortNode(e.Path) + " is gone", false
	}
	return ShortNode(e.Path) + " " + end.Words(clock), end.EndedBy != EndedByUnknown
}

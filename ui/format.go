package ui

import (
	"fmt"
	"strconv"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

func itoa(i int) string { return strconv.Itoa(i) }

// grouped is a count (n ≥ 0) with its thousands grouped: 41,233.
func grouped(n int) string {
	s := itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// plural is one or many, as n asks.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// count is n and the noun in its number: "1 lock", "3 locks".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return itoa(n) + " " + many
}

// age is a participant's age now: its age when its lock was read, plus the
// time since. Both ends are estimates across two clocks.
func (e *env) age(l *lockcore.Lock, d time.Duration) time.Duration {
	if now := e.now(); !l.ReadAt.IsZero() && now.After(l.ReadAt) {
		d += now.Sub(l.ReadAt)
	}
	return d
}

// held is a holder's hold now, for a lock read at l.ReadAt and unchanged
// since: both of its bounds grow by the time since the read.
func (e *env) held(l *lockcore.Lock, h lockcore.Hold) lockcore.Hold {
	return lockcore.HoldAt(h, l.ReadAt, e.now())
}

// timeText is the queue's FOR cell: how long a holder has held (≤ when
// only an upper bound is known) or a waiter has waited; PendingMark when
// its node is not read yet.
func (e *env) timeText(l *lockcore.Lock, q *lockcore.Participant) string {
	switch {
	case q.Pending:
		return model.PendingMark
	case q.Role == lockcore.RoleHolder:
		return model.HoldShort(e.held(l, q.Hold))
	}
	return model.Duration(e.age(l, q.Age))
}

// ageText is a participant's age now in words, or that it is not known.
func (e *env) ageText(l *lockcore.Lock, q *lockcore.Participant) string {
	if q.Pending {
		return model.NotRead
	}
	return model.Duration(e.age(l, q.Age))
}

// tokenText is a participant's fencing token (see token), or that it is
// not known: the narrow form for a table cell.
func tokenText(q *lockcore.Participant, narrow bool) string {
	switch {
	case !q.Pending:
		return token(q.Token)
	case narrow:
		return model.PendingMark
	}
	return model.NotRead
}

// clock formats a time of day in the UI's location.
func (e *env) clock(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.In(e.loc).Format("15:04:05")
}

// stamp formats a full timestamp to the millisecond.
func (e *env) stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.In(e.loc).Format("2006-01-02 15:04:05.000 MST")
}

// ago says how long ago t was, compactly.
func (e *env) ago(t time.Time) string {
	d := e.now().Sub(t)
	if d < 0 {
		d = 0
	}
	return model.Duration(d.Truncate(time.Second)) + " ago"
}

// modeText is a mode as the queue shows it: R, W, X or lease.
func modeText(m lockcore.Mode) string {
	switch m {
	case lockcore.ModeRead:
		return "R"
	case lockcore.ModeWrite:
		return "W"
	case lockcore.ModeExclusive:
		return "X"
	case lockcore.ModeLease:
		return "lease"
	}
	return string(m)
}

func hex(v int64) string { return fmt.Sprintf("0x%x", uint64(v)) }

// token is a fencing token (a czxid) in hex, as ZooKeeper's tools show
// zxids, and in decimal, as clients hand it on: "0x43 (67)".
func token(v int64) string { return fmt.Sprintf("0x%x (%d)", uint64(v), v) }

// nodeText is a participant's node name for display: shortened, or in full
// when asked; escaped either way.
func nodeText(node string, full bool) string {
	if full {
		return model.Printable(node)
	}
	return model.ShortNode(node)
}

// dataText is data for one line: escaped text in quotes, or the first
// bytes in hex for binary data.
// expires says when a disconnected session expires, counting down from
// when the members were asked: "expires within ~12s".
func (e *env) expires(k lockcore.Link) string {
	return k.ExpiresText(k.ExpiresWithin - e.now().Sub(k.At))
}

// dataCell is a participant's data in a table cell: its text, or why it
// cannot be shown.
func dataCell(q *lockcore.Participant) string {
	if q.Pending {
		return model.PendingMark
	}
	if q.DataDenied {
		return "unreadable (ACL)"
	}
	return dataText(q.Data, q.DataTruncated)
}

func dataText(data []byte, truncated bool) string {
	if len(data) == 0 {
		return ""
	}
	if s, ok := model.DataText(data, truncated); ok {
		return "\"" + model.Printable(s) + "\""
	}
	n := min(len(data), 8)
	s := fmt.Sprintf("%x", data[:n])
	if len(data) > n || truncated {
		s += "…"
	}
	return "0x" + s
}

package model

import (
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// NewHoldersText names who holds a lock now, with their fencing tokens,
// for an expired holder's successors: "holds now: 0x1f… token 0x2a (42)",
// or "nobody holds it now".
func NewHoldersText(holders []lockcore.Participant) string {
	if len(holders) == 0 {
		return "nobody holds it now"
	}
	parts := make([]string, len(holders))
	for i, p := range holders {
		parts[i] = fmt.Sprintf("%s token 0x%x (%d)", SessionText(p.Session), p.Token, p.Token)
	}
	return "holds now: " + strings.Join(parts, ", ")
}

// ShortNode shortens the long client identifiers in a contender's name (a
// Curator or go-zookeeper GUID, a kazoo identifier) to their first eight
// characters, keeping what tells contenders apart: the kind and sequence.
// The result is escaped for display.
func ShortNode(node string) string {
	dir, name := "", node
	if i := strings.LastIndexByte(node, '/'); i >= 0 {
		dir, name = node[:i+1], node[i+1:]
	}
	n := lockcore.ParseName(name)
	if len(n.Prefix) >= 32 {
		if i := strings.Index(name, n.Prefix); i >= 0 {
			name = name[:i] + n.Prefix[:8] + "…" + name[i+len(n.Prefix):]
		}
	}
	return Printable(dir + name)
}

// WatchedText names what a waiter watches, escaped: its target's node
// shortened (ShortNode), or for a children watch the node whose children
// are watched, named: "reindex/*" for the lock node's own children, where
// a rule says only "*", and "leases/*" for a semaphore's leases.
func WatchedText(w *lockcore.WatchTarget) string {
	if w.Children && w.Path != "" {
		return Printable(path.Base(w.Path) + "/*")
	}
	return ShortNode(w.Node)
}

// Duration formats an age compactly: 850ms, 42s, 3m05s, 2h10m, 3d4h.
func Duration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dd%dh", int(d.Hours())/24, int(d.Hours())%24)
}

// Bytes formats a byte count compactly, in powers of 1024: 512 B,
// 64.0 KB, 3.2 MB, 1.5 GB.
func Bytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// TokenText describes an application's fencing token in one line.
func TokenText(t *lockcore.AppToken) string {
	s := fmt.Sprintf("%s %s (%s", t.Name, t.Value, t.Path)
	if t.Version >= 0 && t.Value != fmt.Sprint(t.Version) {
		s += fmt.Sprintf(", zkVersion %d", t.Version)
	}
	return s + ")"
}

// MemberText describes one process of an application in one line.
func MemberText(m lockcore.AppMember) string {
	parts := []string{}
	switch m.Role {
	case lockcore.RoleWaiter:
		parts = append(parts, "waiting:")
	case lockcore.RolePrevious:
		parts = append(parts, "held before:")
	default:
		parts = append(parts, "member:")
	}
	if m.Identity != "" {
		parts = append(parts, m.Identity)
	}
	if m.Session != 0 {
		parts = append(parts, "session "+lockcore.SessionHex(m.Session))
	}
	return strings.Join(parts, " ") + " (" + m.Evidence + ")"
}

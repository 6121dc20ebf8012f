package lockcore

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
)

var readAt = time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)

// builder makes nodes with increasing czxid, one second apart in ctime.
type builder struct{ zxid int64 }

func (b *builder) node(name string, owner int64) Node {
	b.zxid++
	return Node{Name: name, Stat: zk.Stat{Czxid: 0x100000000 + b.zxid, EphemeralOwner: owner,
		Ctime: readAt.Add(-time.Hour + time.Duration(b.zxid)*time.Second).UnixMilli()}}
}

func queueTree(path string, kids ...Node) Tree {
	return Tree{Path: path, Children: kids, ReadAt: readAt}
}

// settled sets the parent's pzxid to its newest child's czxid, as in a
// tree that nobody has left since the last contender joined.
func settled(t Tree) Tree {
	for _, c := range t.Children {
		t.Self.Stat.Pzxid = max(t.Self.Stat.Pzxid, c.Stat.Czxid)
	}
	return t
}

// layout describes participants compactly: "node:role:watches" with role h or
// w and watches "-" for none.
func layout(l Lock) string {
	var parts []string
	for _, p := range l.Participants {
		w := "-"
		if p.Watches != nil {
			w = p.Watches.Node
		}
		parts = append(parts, p.Node+":"+string(p.Role[0])+":"+w)
	}
	return strings.Join(parts, " ")
}

func kinds(l Lock) []string {
	var out []string
	for _, a := range l.Anomalies {
		out = append(out, string(a.Kind))
	}
	return out
}

func anomaly(t *testing.T, l Lock, kind AnomalyKind) Anomaly {
	t.Helper()
	for _, a := range l.Anomalies {
		if a.Kind == kind {
			return a
		}
	}
	t.Fatalf("no %s anomaly in %v", kind, kinds(l))
	return Anomaly{}
}

func noAnomaly(t *testing.T, l Lock) {
	t.Helper()
	if len(l.Anomalies) > 0 {
		t.Fatalf("unexpected anomalies %v: %+v", kinds(l), l.Anomalies)
	}
}

// judged stamps w as read after a table that was itself read after every
// node of a test's tree: each waiter's client had its chance to set its
// watch, and a waiter absent from w is judged.
func judged(w *WatchTable) *WatchTable { return w.Since(math.MaxInt64) }

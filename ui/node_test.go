package ui

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestNodeShowsOnlyItsLatestRead: the answers to a node's reads can come
// in any order, after another node was opened or the node read again;
// only the answer to the latest read is shown.
func TestNodeShowsOnlyItsLatestRead(t *testing.T) {
	reads := 0
	a := newTestApp(t, 80, 24, func(o *Options) {
		o.ReadNode = func(_ context.Context, p string) (zkwatch.NodeDetail, error) {
			reads++
			return zkwatch.NodeDetail{Path: p, Data: []byte("read " + itoa(reads) + " of " + p)}, nil
		}
	})
	open := func(p string) tea.Cmd {
		t.Helper()
		_, cmd := a.Update(openNodeMsg{participant: lockcore.Participant{Path: p, Node: p[strings.LastIndex(p, "/")+1:]}})
		if cmd == nil {
			t.Fatalf("opening %s started no read", p)
		}
		return cmd
	}
	first := open("/x/first")
	press(a, "esc")
	second := open("/x/second")
	send(a, second())
	send(a, first())
	if sc := screen(a); !strings.Contains(sc, "read 1 of /x/second") || strings.Contains(sc, "/x/first") {
		t.Fatalf("the first node's late answer replaced the second's:\n%s", sc)
	}

	// Read again: the earlier answer, late, does not replace the later.
	_, again := a.Update(keyMsg("r"))
	_, more := a.Update(keyMsg("r"))
	if again == nil || more == nil {
		t.Fatal("r started no read")
	}
	send(a, more())
	send(a, again())
	if sc := screen(a); !strings.Contains(sc, "read 3 of /x/second") {
		t.Fatalf("an earlier read's answer replaced the latest's:\n%s", sc)
	}
}

// TestTreeShowsOnlyItsLatestListing: going into a child and back up
// before the child's children are read shows the parent's, whichever
// answer comes last.
func TestTreeShowsOnlyItsLatestListing(t *testing.T) {
	a := newTestApp(t, 80, 24)
	press(a, "3", "T")
	for a.tree.names[a.tree.cur.idx] != "locks" {
		press(a, "down")
	}
	_, into := a.Update(keyMsg("enter"))
	_, up := a.Update(keyMsg("h"))
	if into == nil || up == nil {
		t.Fatal("enter or h started no listing")
	}
	send(a, up())
	send(a, into())
	if a.tree.path != "/" || a.tree.names[a.tree.cur.idx] != "locks" || strings.Contains(screen(a), "orders") {
		t.Fatalf("the child's late listing replaced the root's: %s, %q selected:\n%s", a.tree.path,
			a.tree.names[a.tree.cur.idx], screen(a))
	}
}

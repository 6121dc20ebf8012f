package ui

import (
	"slices"
	"strings"
	"testing"
)

func TestTreeBrowses(t *testing.T) {
	a := newTestApp(t, 80, 24)
	press(a, "3", "T") // Events: no lock selected, the tree opens at the root
	if a.focused() != focusTree || a.tree.path != "/" {
		t.Fatalf("T opened %v at %q", a.focused(), a.tree.path)
	}
	if sc := screen(a); !strings.Contains(sc, "locks") || !strings.Contains(sc, "services") || !strings.Contains(sc, "read-only") {
		t.Fatalf("root:\n%s", sc)
	}
	// Down to /locks: the locks the watcher knows are marked.
	for a.tree.names[a.tree.cur.idx] != "locks" {
		press(a, "down")
	}
	press(a, "enter")
	sc := screen(a)
	if a.tree.path != "/locks" || !lineWith(sc, "orders", "curator-rwlock · 2 holding · 6 waiting") {
		t.Fatalf("/locks:\n%s", sc)
	}
	// Hostile names are escaped.
	if strings.Contains(a.View(), "\u202e") || !strings.Contains(sc, `\u202eevil`) {
		t.Fatalf("a name not escaped:\n%s", sc)
	}
	// Into a lock, then a contender's node: data, Stat and ACL.
	for a.tree.names[a.tree.cur.idx] != "orders" {
		press(a, "down")
	}
	press(a, "enter", "i")
	if a.focused() != focusNode || !strings.Contains(screen(a), "numChildren") {
		t.Fatalf("i did not show the node:\n%s", screen(a))
	}
	press(a, "esc")
	// Left goes up with the node we came from selected; esc leaves.
	press(a, "h")
	if a.tree.path != "/locks" || a.tree.names[a.tree.cur.idx] != "orders" {
		t.Fatalf("up: %s, %q selected", a.tree.path, a.tree.names[a.tree.cur.idx])
	}
	press(a, "esc")
	if a.focused() != focusEvents {
		t.Fatalf("esc left the tree for %v", a.focused())
	}
}

// TestTreeOpensAtTheSelectedLock: T from a lock's detail lists its
// contenders.
func TestTreeOpensAtTheSelectedLock(t *testing.T) {
	a := newTestApp(t, 80, 24)
	send(a, openLockMsg{path: "/locks/billing"})
	press(a, "T")
	if sc := screen(a); a.tree.path != "/locks/billing" || !strings.Contains(sc, "3 children") ||
		!strings.Contains(sc, "-lock-0000000017") {
		t.Fatalf("tree at the lock:\n%s", sc)
	}
}

func TestGoldenTree(t *testing.T) {
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			a := newTestApp(t, sz.w, sz.h)
			press(a, ":")
			press(a, strings.Split("/locks", "")...)
			press(a, "enter")
			golden(t, "tree_locks_"+sz.name, a)
		})
	}
}

// lineWith reports whether one line of screen contains every text.
func lineWith(screen string, texts ...string) bool {
	for _, line := range strings.Split(screen, "\n") {
		ok := true
		for _, x := range texts {
			ok = ok && strings.Contains(line, x)
		}
		if ok {
			return true
		}
	}
	return false
}

// TestTreeSortsALockBySequence: a lock's children are listed in queue
// order, by sequence, not by their names' random Curator GUIDs.
func TestTreeSortsALockBySequence(t *testing.T) {
	a := newTestApp(t, 80, 24)
	send(a, openLockMsg{path: "/locks/billing"})
	press(a, "T")
	var seqs []string
	for _, n := range a.tree.names {
		seqs = append(seqs, n[len(n)-10:])
	}
	if !slices.IsSorted(seqs) || len(seqs) < 3 || slices.IsSorted(a.tree.names) {
		t.Fatalf("children not in sequence order (or the fixture's names already are): %v", a.tree.names)
	}
	if got := bySequence([]string{"b-0000000002", "zz", "a-0000000003", "c-0000000001", "aa"}); !slices.Equal(got,
		[]string{"c-0000000001", "b-0000000002", "a-0000000003", "aa", "zz"}) {
		t.Fatalf("bySequence: %v", got)
	}
}

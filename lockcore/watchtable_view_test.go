package lockcore

import (
	"reflect"
	"testing"
)

func TestWatchTableSameFor(t *testing.T) {
	b := &builder{}
	n0, n1 := b.node(curatorName("lock-", 0), 10), b.node(curatorName("lock-", 1), 11)
	tree := settled(queueTree("/l", n0, n1))
	last := n1.Stat.Czxid
	waiter := "/l/" + n1.Name
	holder := "/l/" + n0.Name
	table := func(m map[int64][]string) *WatchTable { return NewWatchTable(m) }
	base := table(map[int64][]string{11: {holder}, 99: {"/elsewhere"}})

	for _, tt := range []struct {
		name string
		a, b *WatchTable
		same bool
	}{
		{"no table either time", nil, nil, true},
		{"a table where there was none", nil, base, false},
		{"a watch elsewhere changed", base, table(map[int64][]string{11: {holder}, 99: {"/other"}}), true},
		{"the waiter's watch moved", base, table(map[int64][]string{11: {waiter}, 99: {"/elsewhere"}}), false},
		{"another session watches the holder", base, table(map[int64][]string{11: {holder}, 12: {holder}}), false},
		{"the table read later, the lock unchanged since", base.AsOf(last), base.AsOf(last + 50), true},
		{"the lock's last change now covered", base.AsOf(last - 1), base.AsOf(last), false},
		{"still predating the lock either time", base.AsOf(last - 2), table(map[int64][]string{11: {waiter}}).AsOf(last - 1), true},
		{"the lock newly in scope", base.Scoped(func(string) bool { return false }), base.Scoped(func(p string) bool { return p == "/l" }), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.b.SameFor(tt.a, tree); got != tt.same {
				t.Fatalf("SameFor = %v, want %v", got, tt.same)
			}
			// Whenever SameFor says so, Analyze must agree.
			if tt.same {
				x, y := Analyze(tree, tt.a, Options{}), Analyze(tree, tt.b, Options{})
				if !reflect.DeepEqual(x, y) {
					t.Fatalf("same view, different analyses:\n%+v\n%+v", x, y)
				}
			}
		})
	}
}

// Copies of one table are equal while stamped alike; tables read apart
// are compared watch by watch.
func TestWatchTableEqual(t *testing.T) {
	a := NewWatchTable(map[int64][]string{1: {"/l/x"}, 2: {"/l/y"}})
	same := NewWatchTable(map[int64][]string{2: {"/l/y"}, 1: {"/l/x"}})
	other := NewWatchTable(map[int64][]string{1: {"/l/y"}, 2: {"/l/x"}})
	scoped := a.Scoped(func(string) bool { return true })
	for _, tt := range []struct {
		name string
		x, y *WatchTable
		want bool
	}{
		{"a copy", a, scoped, true},
		{"a copy stamped later", a.AsOf(5), scoped.AsOf(6), false},
		{"copies stamped alike", a.AsOf(5), scoped.AsOf(5), true},
		{"the same watches read twice", a, same, true},
		{"other watches", a, other, false},
		{"none", a, nil, false},
	} {
		if got := tt.x.Equal(tt.y); got != tt.want {
			t.Errorf("%s: Equal = %v, want %v", tt.name, got, tt.want)
		}
	}
}

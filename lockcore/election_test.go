package lockcore

import (
	"errors"
	"fmt"
	"testing"
)

func TestAnalyzeElections(t *testing.T) {
	for _, tc := range []struct {
		recipe Recipe
		name   func(i int) string
	}{
		{RecipeCuratorLeaderLatch, func(i int) string { return curatorName("latch-", i) }},
		{RecipeZKElection, func(i int) string { return fmt.Sprintf("n_%010d", i) }},
	} {
		t.Run(string(tc.recipe), func(t *testing.T) {
			b := &builder{}
			// Created out of name order, as a listing returns them.
			tree := queueTree("/election", b.node(tc.name(2), 3), b.node(tc.name(0), 1), b.node(tc.name(1), 2))
			want := tc.name(0) + ":h:- " + tc.name(1) + ":w:" + tc.name(0) + " " + tc.name(2) + ":w:" + tc.name(1)
			// Each waiter's session watches its predecessor's data, as the
			// clients do (LeaderLatch with getData, LeaderElectionSupport
			// with exists).
			table := NewWatchTable(map[int64][]string{2: {"/election/" + tc.name(0)}, 3: {"/election/" + tc.name(1)}})
			for _, w := range []*WatchTable{nil, table} {
				l := Analyze(tree, w, Options{})
				if l.Recipe != tc.recipe || layout(l) != want || l.Holders() != 1 || l.Waiters() != 2 {
					t.Fatalf("recipe %s, %d holding, %d waiting\n got %s\nwant %s", l.Recipe, l.Holders(), l.Waiters(), layout(l), want)
				}
				noAnomaly(t, l)
			}
			if _, err := DetectRecipe(Node{}, []string{tc.name(0)}, ModeExclusive); !errors.Is(err, ErrRecipe) {
				t.Fatalf("joining an election as a lock: %v", err)
			}
		})
	}
}

func TestZKElectionOrdersAsIntegers(t *testing.T) {
	// LeaderElectionSupport reads each id with Integer.valueOf, so after the
	// counter wraps the negative suffix comes first.
	b := &builder{}
	tree := queueTree("/election", b.node("n_2147483647", 1), b.node("n_-2147483648", 2))
	if got, want := layout(Analyze(tree, nil, Options{})), "n_-2147483648:h:- n_2147483647:w:n_-2147483648"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

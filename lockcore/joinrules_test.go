package lockcore

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestCheckRevocable(t *testing.T) {
	for _, tc := range []struct {
		name    string
		node    string
		session int64
		ok      bool
	}{
		{"curator mutex", "_c_0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b-lock-0000000001", 7, true},
		{"curator read", "_c_0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b-__READ__0000000001", 7, true},
		{"curator write", "_c_0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b-__WRIT__0000000001", 7, true},
		{"curator mutex, persistent", "_c_0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b-lock-0000000001", 0, false},
		{"curator lease", "_c_0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b-lease-0000000001", 7, false},
		{"kazoo lock", "f3c2a1b0e9d8c7b6a5f4e3d2c1b0a9f8__lock__0000000001", 7, false},
		{"zk writelock", "x-72057594037927937-0000000001", 7, false},
		{"plain ephemeral", "lock", 7, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckRevocable(tc.node, tc.session)
			if (err == nil) != tc.ok || (err != nil && !errors.Is(err, ErrNotRevocable)) {
				t.Errorf("CheckRevocable(%s, %d) = %v, want ok=%v", tc.node, tc.session, err, tc.ok)
			}
		})
	}
}

// TestJoinModesAreJoinable: every mode the rule book offers for a recipe
// it can join has a node name our client can take.
func TestJoinModesAreJoinable(t *testing.T) {
	for _, r := range append(JoinableRecipes(), RecipeEmpty) {
		modes, why := JoinModes(r)
		if len(modes) == 0 {
			t.Errorf("%s: joinable, yet no modes (%s)", r, why)
		}
		for _, m := range modes {
			joined, err := DetectRecipe(Node{}, nil, m)
			if r != RecipeEmpty {
				joined = r
				if r == RecipeKazooLock && m == ModeRead {
					joined = RecipeKazooRWLock
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := NodePrefix(joined, m, 1, "host"); err != nil {
				t.Errorf("%s offers %s, but %s cannot take it: %v", r, m, joined, err)
			}
		}
	}
	for _, r := range []Recipe{RecipeMixed, RecipeEphemeral, RecipeSequential, RecipeUnknown} {
		if modes, why := JoinModes(r); len(modes) > 0 || why == "" {
			t.Errorf("%s: modes %v, why %q; want none and a reason", r, modes, why)
		}
	}
}

func TestParseMode(t *testing.T) {
	for _, m := range Modes() {
		if got, err := ParseMode(string(m)); err != nil || got != m {
			t.Errorf("ParseMode(%s) = %s, %v", m, got, err)
		}
	}
	if _, err := ParseMode("shared"); err == nil || err.Error() != `mode must be exclusive, read, write or lease, not "shared"` {
		t.Errorf("ParseMode(shared): %v", err)
	}
}

func TestWorst(t *testing.T) {
	if w := Worst([]AnomalyKind{AnomalyUnparsed, AnomalyHerd, AnomalySelfWait, AnomalyPersistent}); w != AnomalySelfWait {
		t.Errorf("Worst = %s, want self-wait", w)
	}
	if w := Worst(nil); w != "" {
		t.Errorf("Worst(nil) = %q", w)
	}
	if !slices.Contains(Modes(), ModeLease) {
		t.Error("Modes lacks lease")
	}
}

func TestParseAnomalyKind(t *testing.T) {
	for _, k := range AnomalyKinds() {
		if got, err := ParseAnomalyKind(string(k)); err != nil || got != k {
			t.Errorf("ParseAnomalyKind(%q) = %q, %v", k, got, err)
		}
	}
	if _, err := ParseAnomalyKind("stuck"); err == nil || !strings.Contains(err.Error(), "wait-cycle") {
		t.Errorf("ParseAnomalyKind(stuck) = %v, want an error listing the kinds", err)
	}
}

// The names our client takes are read back, by the one reading of names,
// as the recipe it joined in the mode it asked for: a semaphore's
// acquirer as its queue's, its lease as the semaphore's.
func TestOurNamesReadAsTheirRecipe(t *testing.T) {
	for _, r := range JoinableRecipes() {
		modes, _ := JoinModes(r)
		for _, m := range modes {
			want, wantMode := r, m
			if r == RecipeKazooLock && m == ModeRead {
				continue // a read turns the parent into kazoo-rwlock, asked for by name
			}
			if IsSemaphore(r) {
				_, _, want = SemaphoreDirs(r, "")
				wantMode = ModeExclusive
			}
			prefix, err := NodePrefix(r, m, 0x100000000000001, "web-1")
			if err != nil {
				t.Fatalf("%s %s: %v", r, m, err)
			}
			n := ParseName(prefix + "0000000007")
			got, gotMode := recipeOf(n.Kind, n.Kind == KindKazooRead || (want == RecipeKazooRWLock))
			if got != want || gotMode != wantMode || n.Seq != 7 {
				t.Errorf("%s %s: our name %q reads as %s %s (kind %s, seq %d)", r, m, prefix, got, gotMode, n.Kind, n.Seq)
			}
			if n.HasSession && n.Session != 0x100000000000001 {
				t.Errorf("%s: our name %q carries session %#x", r, prefix, n.Session)
			}
		}
		if IsSemaphore(r) {
			lease := LeaseName(r)
			if r == RecipeCuratorSemaphore {
				lease += "0000000003"
			}
			if k := ParseName(lease).Kind; k != map[Recipe]NameKind{RecipeCuratorSemaphore: KindCuratorLease, RecipeKazooSemaphore: KindKazooLease}[r] {
				t.Errorf("%s: our lease %q reads as %s", r, lease, k)
			}
		}
	}
	if _, err := NodePrefix(RecipeCuratorLeaderLatch, ModeExclusive, 1, "h"); !errors.Is(err, ErrRecipe) {
		t.Errorf("a latch is no lock our client joins: %v", err)
	}
	if _, err := NodePrefix(RecipeCuratorMutex, ModeRead, 1, "h"); !errors.Is(err, ErrRecipe) {
		t.Errorf("a mutex has no read mode: %v", err)
	}
}

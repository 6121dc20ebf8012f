package lockcore

import (
	"slices"
	"strings"
	"testing"
)

// acmeRW is an in-house read/write lock whose mode words are no word the
// fallback rule knows: without its entry, it is read as a mutex.
var acmeRW = Entry{Name: "acme-rw", Paths: []string{"/acme/**"}, Children: "{owner}~{mode}~{seq}",
	Modes: map[string]Mode{"rd": ModeRead, "wr": ModeWrite}, Grant: GrantReadWrite, Identity: "name:owner"}

func acmeTree() Tree {
	var b builder
	return settled(queueTree("/acme/orders",
		b.node("web1~wr~0000000001", 1), b.node("web2~rd~0000000002", 2),
		b.node("web3~rd~0000000003", 3), b.node("web4~wr~0000000004", 4)))
}

func modes(l Lock) []Mode {
	var out []Mode
	for _, p := range l.Participants {
		out = append(out, p.Mode)
	}
	return out
}

func TestAnalyzeByUserEntry(t *testing.T) {
	without := Analyze(acmeTree(), nil, Options{})
	if without.Recipe != RecipeSequential || without.Entry != "" || len(without.Assumed) == 0 {
		t.Fatalf("without an entry: recipe %s, entry %q, assumed %q; want the fallback, assumed", without.Recipe, without.Entry, without.Assumed)
	}
	if got := modes(without); !slices.Equal(got, []Mode{ModeExclusive, ModeExclusive, ModeExclusive, ModeExclusive}) {
		t.Fatalf("without an entry, modes %v", got)
	}
	book, err := NewBook([]Entry{acmeRW})
	if err != nil {
		t.Fatal(err)
	}
	l := Analyze(acmeTree(), nil, Options{Book: book})
	if l.Recipe != "acme-rw" || l.Entry != "acme-rw" || len(l.Assumed) != 0 {
		t.Fatalf("with the entry: recipe %s, entry %q, assumed %q", l.Recipe, l.Entry, l.Assumed)
	}
	if got := modes(l); !slices.Equal(got, []Mode{ModeWrite, ModeRead, ModeRead, ModeWrite}) {
		t.Fatalf("modes %v", got)
	}
	want := "web1~wr~0000000001:h:- web2~rd~0000000002:w:web1~wr~0000000001 web3~rd~0000000003:w:web1~wr~0000000001 web4~wr~0000000004:w:web3~rd~0000000003"
	if got := layout(l); got != want {
		t.Fatalf("layout\n%s\nwant\n%s", got, want)
	}
	if l.Participants[0].Identity != "web1" {
		t.Fatalf("identity %q, want web1", l.Participants[0].Identity)
	}
	noAnomaly(t, l)
	// Elsewhere the entry does not apply.
	other := acmeTree()
	other.Path = "/other"
	if l := Analyze(other, nil, Options{Book: book}); l.Recipe != RecipeSequential {
		t.Fatalf("outside its paths: %s", l.Recipe)
	}
}

func TestAnalyzeByGrant(t *testing.T) {
	var b builder
	kids := func() []Node {
		b = builder{}
		return []Node{b.node("q-0000000001", 1), b.node("q-0000000002", 2), b.node("q-0000000003", 3)}
	}
	cases := []struct {
		name  string
		entry Entry
		self  []byte
		want  string
	}{
		{"mutex", Entry{Grant: GrantMutex}, nil, "q-0000000001:h:- q-0000000002:w:q-0000000001 q-0000000003:w:q-0000000002"},
		{"mutex herd", Entry{Grant: GrantMutex, Waits: WaitChildren}, nil, "q-0000000001:h:- q-0000000002:w:* q-0000000003:w:*"},
		{"election", Entry{Grant: GrantElection}, nil, "q-0000000001:h:- q-0000000002:w:q-0000000001 q-0000000003:w:q-0000000002"},
		{"semaphore of 2", Entry{Grant: GrantSemaphore, Limit: "2"}, nil, "q-0000000001:h:- q-0000000002:h:- q-0000000003:w:*"},
		{"semaphore by data", Entry{Grant: GrantSemaphore, Limit: "data"}, []byte("1"), "q-0000000001:h:- q-0000000002:w:* q-0000000003:w:*"},
		{"co-holding", Entry{Grant: GrantCoHolding}, nil, "q-0000000001:h:- q-0000000002:h:- q-0000000003:h:-"},
		{"polling mutex", Entry{Grant: GrantMutex, Waits: WaitNothing}, nil, "q-0000000001:h:- q-0000000002:w:- q-0000000003:w:-"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := tc.entry
			e.Name, e.Paths, e.Children = "test", []string{"/q"}, "q-{seq}"
			book, err := NewBook([]Entry{e})
			if err != nil {
				t.Fatal(err)
			}
			tree := queueTree("/q", kids()...)
			tree.Self.Data = tc.self
			l := Analyze(tree, nil, Options{Book: book})
			if got := layout(l); got != tc.want {
				t.Fatalf("layout\n%s\nwant\n%s", got, tc.want)
			}
			if len(l.Assumed) != 0 {
				t.Fatalf("assumed %q", l.Assumed)
			}
		})
	}
}

// A node whose name says read or write is never shown as exclusive, even
// when no entry describes it; what is assumed says so.
func TestReadWriteWordsAreNeverExclusive(t *testing.T) {
	var b builder
	tree := queueTree("/hbase/table-lock/t1",
		b.node("write-0000000001", 1), b.node("read-0000000002", 2), b.node("SHARED-0000000003", 3),
		b.node("EXCLUSIVE-0000000004", 4), b.node("R_W-0000000005", 5))
	l := Analyze(tree, nil, Options{})
	if got := modes(l); !slices.Equal(got, []Mode{ModeWrite, ModeRead, ModeRead, ModeWrite, ModeWrite}) {
		t.Fatalf("modes %v", got)
	}
	want := "write-0000000001:h:- read-0000000002:w:write-0000000001 SHARED-0000000003:w:write-0000000001 " +
		"EXCLUSIVE-0000000004:w:SHARED-0000000003 R_W-0000000005:w:EXCLUSIVE-0000000004"
	if got := layout(l); got != want {
		t.Fatalf("layout\n%s\nwant\n%s", got, want)
	}
	if len(l.Assumed) != 2 || !strings.Contains(l.Assumed[1], `"read" as read`) {
		t.Fatalf("assumed %q", l.Assumed)
	}
}

// An election the user describes is one for every judge of long waits.
func TestUserElectionElects(t *testing.T) {
	book, err := NewBook([]Entry{{Name: "billing-leader", Paths: []string{"/billing/leader"}, Children: "cand-{id}-{seq}",
		Grant: GrantElection, Identity: "name:id"}})
	if err != nil {
		t.Fatal(err)
	}
	var b builder
	tree := queueTree("/billing/leader", b.node("cand-pay1-0000000001", 1), b.node("cand-pay2-0000000002", 2))
	if l := Analyze(tree, nil, Options{}); l.Elects() {
		t.Fatalf("without the entry, %s elects", l.Recipe)
	}
	l := Analyze(tree, nil, Options{Book: book})
	if !l.Elects() || l.Grant != GrantElection || l.Participants[0].Identity != "pay1" {
		t.Fatalf("with the entry: elects %v, grant %s, identity %q", l.Elects(), l.Grant, l.Participants[0].Identity)
	}
	if got := layout(l); got != "cand-pay1-0000000001:h:- cand-pay2-0000000002:w:cand-pay1-0000000001" {
		t.Fatalf("layout %s", got)
	}
}

func TestPlainNodeWithAWriteWord(t *testing.T) {
	var b builder
	self := b.node("nightly-write-lock", 7)
	l := Analyze(Tree{Path: "/jobs/nightly-write-lock", Self: self, ReadAt: readAt}, nil, Options{})
	if l.Recipe != RecipeEphemeral || len(l.Participants) != 1 || l.Participants[0].Mode != ModeWrite ||
		!strings.Contains(l.Participants[0].Note, `word "write"`) {
		t.Fatalf("recipe %s, participants %+v, assumed %q", l.Recipe, l.Participants, l.Assumed)
	}
	plain := Analyze(Tree{Path: "/jobs/nightly-lock", Self: b.node("nightly-lock", 8), ReadAt: readAt}, nil, Options{})
	if plain.Participants[0].Mode != ModeExclusive || len(plain.Assumed) != 0 {
		t.Fatalf("a plain lock node: %s, assumed %q", plain.Participants[0].Mode, plain.Assumed)
	}
}

package lockcore

import (
	"fmt"
	"strings"
	"testing"
)

// rw builds a read/write queue from a pattern such as "RRWRRWWR" with the
// given name makers, each contender in its own session.
func rw(b *builder, pattern string, read, write func(i int) string) []Node {
	var kids []Node
	for i, c := range pattern {
		name := write(i)
		if c == 'R' {
			name = read(i)
		}
		kids = append(kids, b.node(name, int64(100+i)))
	}
	return kids
}

func curatorName(kind string, i int) string {
	return fmt.Sprintf("_c_%08d-d857-43b1-a984-39c874c42dda-%s%010d", i, kind, i)
}

func TestAnalyzeQueues(t *testing.T) {
	kazooName := func(kind string) func(int) string {
		return func(i int) string { return fmt.Sprintf("%032x%s%010d", i+1, kind, i) }
	}
	curator := func(kind string) func(int) string { return func(i int) string { return curatorName(kind, i) } }
	short := func(l Lock) string {
		var parts []string
		for _, p := range l.Participants {
			w := "-"
			if p.Watches != nil {
				w = fmt.Sprint(ParseName(p.Watches.Node).Seq)
			}
			parts = append(parts, fmt.Sprintf("%d%s%s", p.Seq, string(p.Role[0]), w))
		}
		return strings.Join(parts, " ")
	}
	tests := []struct {
		name   string
		kids   func(b *builder) []Node
		recipe Recipe
		want   string // seq, role (h/w), watched seq
	}{
		{"curator mutex", func(b *builder) []Node { return rw(b, "WWW", nil, curator("lock-")) },
			RecipeCuratorMutex, "0h- 1w0 2w1"},
		{"curator rwlock RRWRRWWR: readers wait on the first write", func(b *builder) []Node {
			return rw(b, "RRWRRWWR", curator("__READ__"), curator("__WRIT__"))
		}, RecipeCuratorRWLock, "0h- 1h- 2w1 3w2 4w2 5w4 6w5 7w2"},
		{"kazoo rwlock RRWRRWWR: readers wait on the nearest earlier write", func(b *builder) []Node {
			return rw(b, "RRWRRWWR", kazooName("__rlock__"), kazooName("__lock__"))
		}, RecipeKazooRWLock, "0h- 1h- 2w1 3w2 4w2 5w4 6w5 7w6"},
		{"kazoo lock", func(b *builder) []Node { return rw(b, "WWW", nil, kazooName("__lock__")) },
			RecipeKazooLock, "0h- 1w0 2w1"},
		{"host-tagged read/write", func(b *builder) []Node {
			return rw(b, "RWR", func(i int) string { return fmt.Sprintf("host%d-R-%010d", i, i) },
				func(i int) string { return fmt.Sprintf("host%d-W-%010d", i, i) })
		}, RecipeHostRW, "0h- 1w0 2w1"},
		{"zookeeper WriteLock", func(b *builder) []Node {
			return rw(b, "WW", nil, func(i int) string { return fmt.Sprintf("x-%d-%010d", 72057608680570883+i, i) })
		}, RecipeZKWriteLock, "0h- 1w0"},
		{"session-tagged", func(b *builder) []Node {
			return rw(b, "WW", nil, func(i int) string { return fmt.Sprintf("lock-%d-%010d", 100+i, i) })
		}, RecipeSessionLock, "0h- 1w0"},
		{"unknown sequential", func(b *builder) []Node {
			return rw(b, "WW", nil, func(i int) string { return fmt.Sprintf("job-%010d", i) })
		}, RecipeSequential, "0h- 1w0"},
		{"curator and go-zookeeper interoperate", func(b *builder) []Node {
			return []Node{b.node(curatorName("lock-", 0), 1),
				b.node("_c_9f0c1e2d3c4b5a69788796a5b4c3d2e1-lock-0000000001", 2),
				b.node(curatorName("lock-", 2), 3)}
		}, RecipeCuratorMutex, "0h- 1w0 2w1"},
		{"queue order is by sequence, not by name", func(b *builder) []Node {
			return []Node{b.node("_c_ffffffff-d857-43b1-a984-39c874c42dda-lock-0000000000", 1),
				b.node("_c_00000000-d857-43b1-a984-39c874c42dda-lock-0000000001", 2)}
		}, RecipeCuratorMutex, "0h- 1w0"},
		{"gaps in sequence", func(b *builder) []Node {
			return []Node{b.node(curatorName("lock-", 9), 2), b.node(curatorName("lock-", 4), 1)}
		}, RecipeCuratorMutex, "4h- 9w4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := Analyze(queueTree("/locks/orders", tt.kids(&builder{})...), nil, Options{})
			if l.Recipe != tt.recipe {
				t.Errorf("recipe = %s, want %s", l.Recipe, tt.recipe)
			}
			if got := short(l); got != tt.want {
				t.Errorf("queue = %s\nwant    %s", got, tt.want)
			}
			if l.WatchesSource != WatchesFromRecipe {
				t.Errorf("watches source = %s, want recipe", l.WatchesSource)
			}
			noAnomaly(t, l)
		})
	}
}

func TestAnalyzeChainAndFields(t *testing.T) {
	b := &builder{}
	kids := rw(b, "RRWRRWWR", func(i int) string { return curatorName("__READ__", i) },
		func(i int) string { return curatorName("__WRIT__", i) })
	kids[2].Data = []byte("10.0.0.7")
	l := Analyze(queueTree("/locks/orders", kids...), nil, Options{})
	p := l.Participants[5] // W5 → R4 → W2 → R1 (holder)
	want := []string{curatorName("__READ__", 4), curatorName("__WRIT__", 2), curatorName("__READ__", 1)}
	if strings.Join(p.Chain, ",") != strings.Join(want, ",") {
		t.Fatalf("chain = %v, want %v", p.Chain, want)
	}
	w := l.Participants[2]
	if w.Mode != ModeWrite || w.Position != 2 || w.Session != 102 || string(w.Data) != "10.0.0.7" ||
		w.Token != kids[2].Stat.Czxid || w.Path != "/locks/orders/"+curatorName("__WRIT__", 2) {
		t.Fatalf("participant fields wrong: %+v", w)
	}
	if w.Age <= 0 || l.Holders() != 2 || l.Waiters() != 6 {
		t.Fatalf("age %v holders %d waiters %d", w.Age, l.Holders(), l.Waiters())
	}
	if l.Participants[0].Watches != nil || l.Participants[0].Chain != nil {
		t.Fatalf("holder has a watch or chain: %+v", l.Participants[0])
	}
}

func TestAnalyzeCuratorDowngrade(t *testing.T) {
	b := &builder{}
	l := Analyze(queueTree("/rw", b.node(curatorName("__WRIT__", 0), 7), b.node(curatorName("__READ__", 1), 7),
		b.node(curatorName("__READ__", 2), 8)), nil, Options{})
	if got := layout(l); !strings.Contains(got, curatorName("__READ__", 1)+":h:-") ||
		!strings.Contains(got, curatorName("__READ__", 2)+":w:"+curatorName("__WRIT__", 0)) {
		t.Fatalf("downgrade not recognised: %s", got)
	}
	noAnomaly(t, l)
}

func TestAnalyzeEmptyAndUnknown(t *testing.T) {
	b := &builder{}
	if l := Analyze(queueTree("/locks/idle"), nil, Options{}); l.Recipe != RecipeEmpty || len(l.Participants) != 0 {
		t.Fatalf("empty lock: %+v", l)
	}
	l := Analyze(queueTree("/config", b.node("db", 0), b.node("cache", 0)), nil, Options{})
	if l.Recipe != RecipeUnknown || len(l.Participants) != 0 || len(l.Anomalies) != 2 || l.Anomalies[0].Kind != AnomalyUnparsed {
		t.Fatalf("non-lock children: recipe %s, anomalies %v", l.Recipe, kinds(l))
	}
}

func TestLongQueueChainsAreCut(t *testing.T) {
	b := &builder{}
	var kids []Node
	for i := 0; i < 2000; i++ {
		kids = append(kids, b.node(curatorName("lock-", i), int64(i+1)))
	}
	l := Analyze(queueTree("/long", kids...), nil, Options{})
	last := l.Participants[len(l.Participants)-1]
	if len(last.Chain) != MaxChain || !last.ChainCut || last.Chain[0] != curatorName("lock-", 1998) {
		t.Fatalf("chain of the last waiter: %d hops, cut %v", len(last.Chain), last.ChainCut)
	}
	if first := l.Participants[1]; len(first.Chain) != 1 || first.ChainCut {
		t.Fatalf("a short chain is whole: %v", first.Chain)
	}
}

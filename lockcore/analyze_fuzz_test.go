package lockcore

import (
	"fmt"
	"testing"

	"github.com/go-zookeeper/zk"
)

// fuzzTree builds a lock tree from fuzz input: each pair of bytes picks a
// name shape and an owner session.
func fuzzTree(data []byte, watches bool) (Tree, *WatchTable) {
	shapes := []func(i int) string{
		func(i int) string { return curatorName("lock-", i) },
		func(i int) string { return curatorName("__READ__", i) },
		func(i int) string { return curatorName("__WRIT__", i) },
		func(i int) string { return fmt.Sprintf("%032x__lock__%010d", i, i) },
		func(i int) string { return fmt.Sprintf("%032x__rlock__%010d", i, i) },
		func(i int) string { return fmt.Sprintf("_c_%032x-lock-%010d", i, i) },
		func(i int) string { return fmt.Sprintf("x-%d-%010d", i, i) },
		func(i int) string { return fmt.Sprintf("h-R-%010d", i) },
		func(i int) string { return fmt.Sprintf("h-W-%010d", i) },
		func(i int) string { return fmt.Sprintf("odd\x1b%d", i) },
		func(i int) string { return fmt.Sprintf("%032x", i) },
		func(i int) string { return "leases" },
		func(i int) string { return fmt.Sprintf("%d-n%d-n_%010d", i-3, i, i/2) },
		func(i int) string { return fmt.Sprintf("zlock#%08x-0000-4000-8000-000000000000#%010d", i%3, i) },
		func(i int) string { return fmt.Sprintf("flock#%010d", i) },
		func(i int) string { return fmt.Sprintf("h%d.example.com,16000,%d", i, 1700000000000+i) },
		func(i int) string {
			return fmt.Sprintf("LOCK-%s-%010d", []string{"SHARED", "EXCLUSIVE", "SEMI_SHARED"}[i%3], i)
		},
		func(i int) string { return fmt.Sprintf("%s-master:16000%010d", []string{"read", "write"}[i%2], i) },
		func(i int) string { return fmt.Sprintf("json.info_%010d", i) },
		func(i int) string { return fmt.Sprintf("member_%010d", i) },
		func(i int) string { return fmt.Sprintf("ds=2023-11-%02d", i%30) },
	}
	t := Tree{Path: "/f", ReadAt: readAt, Extra: map[string][]Node{}}
	table := map[int64][]string{}
	for i := 0; i+1 < len(data) && i < 400; i += 2 {
		name := shapes[int(data[i])%len(shapes)](i / 2)
		owner := int64(data[i+1] % 8)
		n := Node{Name: name, Stat: zk.Stat{Czxid: int64(i), EphemeralOwner: owner}}
		t.Children = append(t.Children, n)
		t.Extra["/f/leases"] = append(t.Extra["/f/leases"], n)
		if watches {
			table[owner] = append(table[owner], "/f/"+shapes[int(data[i+1])%len(shapes)](int(data[i])%(len(data)/2+1)))
		}
	}
	if !watches {
		return t, nil
	}
	return t, NewWatchTable(table)
}

func FuzzAnalyze(f *testing.F) {
	f.Add([]byte{0, 1, 0, 2, 0, 3}, false)
	f.Add([]byte{1, 1, 2, 2, 1, 3, 4, 4, 3, 5}, true)
	f.Add([]byte{11, 0, 11, 0}, true)
	f.Fuzz(func(t *testing.T, data []byte, watches bool) {
		tree, w := fuzzTree(data, watches)
		l := Analyze(tree, w, Options{LongHeld: 1})
		paths := map[string]bool{}
		for i, p := range l.Participants {
			if p.Position != i {
				t.Fatalf("position %d at index %d", p.Position, i)
			}
			if paths[p.Path] {
				t.Fatalf("participant %s listed twice", p.Path)
			}
			paths[p.Path] = true
			if p.Role == RoleHolder && (p.Watches != nil || len(p.Chain) > 0) {
				t.Fatalf("holder %s has a watch target", p.Node)
			}
			if len(p.Chain) > len(l.Participants)+1 {
				t.Fatalf("chain of %s longer than the queue: %v", p.Node, p.Chain)
			}
		}
		for _, a := range l.Anomalies {
			if a.Detail == "" || len(a.Kind) == 0 {
				t.Fatalf("anomaly without evidence: %+v", a)
			}
		}
	})
}

package lockcore

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
)

// The client recipes read by their fields alone must read every lock as
// the Go code that read them before did: these tests read the same trees
// with the entry read by its fields and with it read by the code, and
// compare the whole Lock.

// byFieldsRecipes are the built-in entries read by their fields alone
// that Go code used to read.
var byFieldsRecipes = []Recipe{RecipeKazooLock, RecipeGoZKLock, RecipeCuratorMutex, RecipeCuratorLeaderLatch, RecipeCuratorRWLock, RecipeZKWriteLock, RecipeSessionLock, RecipeKazooRWLock, RecipeSolrElection}

// bookReading is the built-in book with recipe read by its fields, or
// (coded) by the parser and the queue rules that read it before, as a
// reads hook.
func bookReading(t testing.TB, recipe Recipe, coded bool) *Book {
	b := &Book{}
	shapes := builtinShapes()
	for i, e := range builtinEntries() {
		c, err := compile(e, i+1)
		if err != nil {
			t.Fatal(err)
		}
		c.hooks = shapes[i].hooks
		if e.Name == string(recipe) && coded {
			c.hooks.reads = readQueue
		}
		b.entries = append(b.entries, c)
	}
	b.index()
	return b
}

// childGen draws a child's name from bytes: the recipe's own names with
// every id and sequence form, and names of other shapes beside them.
type childGen struct{ r *rand.Rand }

func (g childGen) pick(opts ...string) string { return opts[g.r.IntN(len(opts))] }

func (g childGen) hex(n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[g.r.IntN(16)]
	}
	return string(b)
}

func (g childGen) uuid() string {
	h := g.hex(32)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func (g childGen) seq() string {
	switch g.r.IntN(6) {
	case 0:
		return fmt.Sprintf("%010d", 2147483600+g.r.IntN(47))
	case 1:
		return fmt.Sprintf("%010d", -2147483648+g.r.IntN(5))
	case 2:
		return fmt.Sprintf("-%09d", g.r.IntN(1000))
	}
	return fmt.Sprintf("%010d", g.r.IntN(40))
}

func (g childGen) session() string {
	s := 0x100000000000000 + g.r.Int64N(8)
	return g.pick(fmt.Sprint(s), fmt.Sprintf("0x%x", s), fmt.Sprintf("%x", s), fmt.Sprint(-s), "0x", "12abc")
}

func (g childGen) name(recipe Recipe) string {
	if g.r.IntN(8) == 0 {
		recipe = byFieldsRecipes[g.r.IntN(len(byFieldsRecipes))]
	}
	if g.r.IntN(12) == 0 {
		return g.pick("n_"+g.seq(), "web1-R-"+g.seq(), g.hex(32)+"__rlock__"+g.seq(), "stray", "_c_"+g.uuid()+"-latch-"+g.seq(), "x-"+g.seq())
	}
	switch recipe {
	case RecipeKazooLock:
		id := g.pick(g.hex(32), g.hex(32), "web-1", "_c_"+g.uuid()+"-x", "", "a__lock__b", g.uuid())
		return id + "__lock__" + g.seq()
	case RecipeGoZKLock:
		return "_c_" + g.pick(g.hex(32), g.hex(32), g.hex(31), g.uuid(), "zz") + "-lock-" + g.seq()
	case RecipeZKWriteLock:
		// WriteLock's own sessions are decimal: most names are of its form.
		decimal := fmt.Sprint(0x100000000000000 + g.r.Int64N(8))
		return "x-" + g.pick(decimal, decimal, decimal, g.session()) + "-" + g.seq()
	case RecipeSessionLock:
		return "lock-" + g.session() + "-" + g.seq()
	case RecipeKazooRWLock:
		return g.pick(g.hex(32), g.hex(32), "web-1") + g.pick("__lock__", "__rlock__", "__rlock__") + g.seq()
	case RecipeSolrElection:
		decimal := fmt.Sprint(g.pick("", "-") + fmt.Sprint(0x100000000000000+g.r.Int64N(8)))
		return g.pick(decimal, decimal, decimal, g.session()) + "-" + g.pick("core_node3", "10.0.0.1:8983_solr", "a-b") + "-n_" + g.pick(g.seq(), "0000000004")
	case RecipeCuratorLeaderLatch:
		return "_c_" + g.pick(g.uuid(), g.uuid(), g.hex(32)) + "-latch-" + g.seq()
	case RecipeCuratorRWLock:
		return "_c_" + g.pick(g.uuid(), g.uuid(), g.hex(32)) + g.pick("-__READ__", "-__WRIT__", "-__READ__") + g.seq()
	}
	return "_c_" + g.pick(g.uuid(), g.uuid(), g.hex(32), g.uuid()+"-x") + "-lock-" + g.seq()
}

// randomTree is a lock of recipe's contenders (and others) with sessions,
// data and, sometimes, the servers' watch table.
func randomTree(r *rand.Rand, recipe Recipe) (Tree, *WatchTable) {
	g := childGen{r}
	at := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	tree := Tree{Path: g.pick("/app/locks/job", "/app/locks/lock-7", "/nifi/leaders/Cluster Coordinator", "/hbase/table-lock/t1"), ReadAt: at}
	tree.Self.Stat.Pzxid = 0x100000000
	watches := map[int64][]string{}
	for i := range 1 + r.IntN(7) {
		owner := int64(0)
		if r.IntN(6) != 0 {
			owner = 0x100000000000000 + r.Int64N(5)
		}
		n := Node{Name: g.name(recipe), Data: []byte(g.pick("", "worker-1", "{\"host\":\"a\"}", "\x1b[31m", "10.0.0.7", RevokeRequest)),
			Stat: zk.Stat{Czxid: 0x100000000 + int64(r.IntN(50)), EphemeralOwner: owner, Version: int32(i),
				Ctime: at.Add(-time.Duration(r.IntN(3600)) * time.Second).UnixMilli()}}
		n.Stat.DataLength = int32(len(n.Data))
		n.Pending = r.IntN(15) == 0
		tree.Self.Stat.Pzxid = max(tree.Self.Stat.Pzxid, n.Stat.Czxid+int64(r.IntN(2)))
		tree.Children = append(tree.Children, n)
	}
	for _, n := range tree.Children {
		if n.Stat.EphemeralOwner != 0 && r.IntN(2) == 0 {
			other := tree.Children[r.IntN(len(tree.Children))]
			watches[n.Stat.EphemeralOwner] = append(watches[n.Stat.EphemeralOwner], tree.Path+"/"+other.Name)
		}
	}
	if r.IntN(3) == 0 {
		return tree, nil
	}
	return tree, NewWatchTable(watches)
}

// readBoth reads a tree with recipe's entry read by its fields and by the
// code, reports a difference, and returns the lock as read by its fields.
func readBoth(t *testing.T, recipe Recipe, fields, coded *Book, tree Tree, w *WatchTable) Lock {
	opt := Options{LongHeld: 30 * time.Minute}
	got, want := Analyze(tree, w, Options{LongHeld: opt.LongHeld, Book: fields}), Analyze(tree, w, Options{LongHeld: opt.LongHeld, Book: coded})
	if !reflect.DeepEqual(got, want) {
		var names []string
		for _, c := range tree.Children {
			names = append(names, c.Name)
		}
		a, b := fmt.Sprintf("%+v", got), fmt.Sprintf("%+v", want)
		i := 0
		for i < min(len(a), len(b)) && a[i] == b[i] {
			i++
		}
		from := max(i-300, 0)
		t.Fatalf("%s on %q: by fields\n…%s\nby code\n…%s", recipe, names, a[from:min(i+200, len(a))], b[from:min(i+200, len(b))])
	}
	return got
}

// TestByFieldsRecipesReadAsTheCodeDid compares the two readings on many
// random locks of each recipe read by its fields.
func TestByFieldsRecipesReadAsTheCodeDid(t *testing.T) {
	for _, recipe := range byFieldsRecipes {
		// Each recipe on a core of its own: 3,000 trees read twice
		// each, under -race, are CPU time.
		t.Run(string(recipe), func(t *testing.T) {
			t.Parallel()
			fields, coded := bookReading(t, recipe, false), bookReading(t, recipe, true)
			read := 0
			for seed := range uint64(3000) {
				tree, w := randomTree(rand.New(rand.NewPCG(seed, uint64(len(recipe)))), recipe)
				if readBoth(t, recipe, fields, coded, tree, w).Recipe == recipe {
					read++
				}
			}
			if read < 300 {
				t.Errorf("%s: only %d of the locks are the recipe's: the comparison tests little", recipe, read)
			}
		})
	}
}

// FuzzByFieldsRecipes compares the two readings on locks drawn from the
// fuzzer's seeds.
func FuzzByFieldsRecipes(f *testing.F) {
	f.Add(uint64(1), uint8(0))
	f.Add(uint64(7), uint8(3))
	books := map[Recipe][2]*Book{}
	for _, recipe := range byFieldsRecipes {
		books[recipe] = [2]*Book{bookReading(f, recipe, false), bookReading(f, recipe, true)}
	}
	f.Fuzz(func(t *testing.T, seed uint64, which uint8) {
		recipe := byFieldsRecipes[int(which)%len(byFieldsRecipes)]
		tree, w := randomTree(rand.New(rand.NewPCG(seed, uint64(which))), recipe)
		readBoth(t, recipe, books[recipe][0], books[recipe][1], tree, w)
	})
}

// BenchmarkAnalyzeKazooLock: one kazoo lock of 100,000 contenders read
// by its entry's fields and by the code that read it before.
func BenchmarkAnalyzeKazooLock(b *testing.B) {
	g := childGen{rand.New(rand.NewPCG(1, 2))}
	tree := Tree{Path: "/app/locks/big", ReadAt: time.Now()}
	for i := range 100000 {
		tree.Children = append(tree.Children, Node{Name: fmt.Sprintf("%s__lock__%010d", g.hex(32), i),
			Stat: zk.Stat{Czxid: int64(0x100000000 + i), EphemeralOwner: int64(0x100000000000000 + i)}})
	}
	for _, c := range []struct {
		name  string
		coded bool
	}{{"fields", false}, {"code", true}} {
		book := bookReading(b, RecipeKazooLock, c.coded)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if l := Analyze(tree, nil, Options{Book: book}); l.Recipe != RecipeKazooLock || len(l.Participants) != len(tree.Children) {
					b.Fatal(l.Recipe, len(l.Participants))
				}
			}
		})
	}
}

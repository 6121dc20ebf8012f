package lockcore

import (
	"errors"
	"strings"
	"testing"
)

// Every built-in entry's pattern reads the names of its own recipe as the
// parser and the names hooks do, so that what recipes and explain show of
// an entry whose names a hook reads (Accumulo's, Mesos's, Hive's) is
// what its hook reads, and discovery's fallback agrees with the book.
func TestBuiltinEntriesAgreeWithParser(t *testing.T) {
	uuid := "0f0e0d0c-0b0a-4908-8706-050403020100"
	hex := "0f0e0d0c0b0a49088706050403020100"
	names := map[Recipe][]string{
		RecipeCuratorMutex:       {"_c_" + uuid + "-lock-0000000001"},
		RecipeCuratorRWLock:      {"_c_" + uuid + "-__READ__0000000001", "_c_" + uuid + "-__WRIT__0000000002"},
		RecipeCuratorSemaphore:   {"_c_" + uuid + "-lease-0000000003"},
		RecipeGoZKLock:           {"_c_" + hex + "-lock-0000000001"},
		RecipeKazooLock:          {hex + "__lock__0000000001"},
		RecipeKazooRWLock:        {hex + "__rlock__0000000001", hex + "__lock__0000000002"},
		RecipeKazooSemaphore:     {hex},
		RecipeZKWriteLock:        {"x-72057594037927937-0000000001"},
		RecipeCuratorLeaderLatch: {"_c_" + uuid + "-latch-0000000001"},
		RecipeZKElection:         {"n_0000000001"},
		RecipeHostRW:             {"web1-R-0000000001", "web2-W-0000000002"},
		RecipeSessionLock:        {"lock-0x100000000000001-0000000001"},
		RecipeSolrElection:       {"72057594037927937-core_node1-n_0000000001", "-72057594037927937-core_node1-n_0000000002"},
		RecipeAccumuloLock:       {"zlock#" + uuid + "#0000000001"},
		RecipeMesos:              {"json.info_0000000001"},
		RecipeHive:               {"LOCK-SHARED-0000000001", "LOCK-EXCLUSIVE-0000000002", "LOCK-SEMI_SHARED-0000000003"},
	}
	b := builtinBook()
	for _, c := range b.entries {
		if !c.Builtin || c.Source != "built-in" {
			t.Errorf("%s: built-in entries say so (Builtin %v, Source %q)", c.Name, c.Builtin, c.Source)
		}
		// Entries read by their fields alone are held to the parser too
		// where it still knows their names (discovery's fallback, our own
		// client); others have no parser to agree with
		// (TestHBaseTableLockQueue reads one).
		for _, n := range names[Recipe(c.Name)] {
			got, vals, ok := c.parse(n)
			if !ok {
				t.Errorf("%s: pattern %q does not read %q", c.Name, c.Children, n)
				continue
			}
			want := ParseName(n)
			if got.Seq != want.Seq || got.HasSeq != want.HasSeq || got.Session != want.Session && want.HasSession {
				t.Errorf("%s: %q read as seq %d session %d, the parser says seq %d session %d", c.Name, n, got.Seq, got.Session, want.Seq, want.Session)
			}
			// A kazoo __lock__ node is a write only beside read nodes.
			rec, mode := recipeOf(want.Kind, c.Name == string(RecipeKazooRWLock))
			if want.Kind == KindKazooLease {
				rec, mode = RecipeKazooSemaphore, ModeLease
			}
			if want.Kind == KindCuratorLease {
				rec, mode = RecipeCuratorSemaphore, ModeLease
			}
			if want.Kind == KindHiveLock {
				mode, _ = hiveMode(want.Prefix)
			}
			if got := c.modeOf(vals); got != mode || rec != Recipe(c.Name) {
				t.Errorf("%s: %q is %s in %s by the entry, %s in %s by the parser", c.Name, n, got, c.Name, mode, rec)
			}
		}
	}
	for r := range names {
		if b.byName(string(r)) == nil {
			t.Errorf("no built-in entry for %s", r)
		}
	}
}

func TestNewBookRefusesBadEntries(t *testing.T) {
	good := Entry{Name: "acme", Paths: []string{"/acme/*"}, Children: "{owner}.{seq}", Grant: GrantMutex}
	with := func(f func(*Entry)) []Entry {
		e := good
		f(&e)
		return []Entry{e}
	}
	cases := []struct {
		name    string
		entries []Entry
		field   string
		says    string
	}{
		{"no name", with(func(e *Entry) { e.Name = "" }), "name", "lowercase"},
		{"upper-case name", with(func(e *Entry) { e.Name = "Acme" }), "name", "lowercase"},
		{"built-in name", with(func(e *Entry) { e.Name = "curator-mutex" }), "name", "built-in"},
		{"twice", []Entry{good, good}, "name", "another entry's"},
		{"unknown grant", with(func(e *Entry) { e.Grant = "fifo" }), "grant", "mutex, read-write"},
		{"relative path", with(func(e *Entry) { e.Paths = []string{"acme/*"} }), "paths", "absolute"},
		{"empty element", with(func(e *Entry) { e.Paths = []string{"/acme//x"} }), "paths", "empty element"},
		{"bad glob", with(func(e *Entry) { e.Paths = []string{"/acme/[x"} }), "paths", "syntax"},
		{"half a double star", with(func(e *Entry) { e.Paths = []string{"/acme/a**"} }), "paths", "whole element"},
		{"no children", with(func(e *Entry) { e.Children = "" }), "children", "pattern"},
		{"unknown part", with(func(e *Entry) { e.Children = "{host}-{seq}" }), "children", "{host} is no part"},
		{"seq not last", with(func(e *Entry) { e.Children = "{seq}-{owner}" }), "children", "last"},
		{"part twice", with(func(e *Entry) { e.Children = "{owner}-{owner}-{seq}" }), "children", "twice"},
		{"unclosed", with(func(e *Entry) { e.Children = "{owner-{seq}" }), "children", "no part"},
		{"open brace", with(func(e *Entry) { e.Children = "a{" }), "children", "without '}'"},
		{"adjacent free parts", with(func(e *Entry) { e.Children = "{owner}{id}-{seq}" }), "children", "nothing between"},
		{"form of a seq", with(func(e *Entry) { e.Children = "{owner}.{seq:hex}" }), "children", "only {owner} and {id} take a form"},
		{"unknown form", with(func(e *Entry) { e.Children = "{owner:guid}.{seq}" }), "children", "the forms are uuid"},
		{"mutex without seq", with(func(e *Entry) { e.Children = "{owner}" }), "children", "needs {seq}"},
		{"mode without words", with(func(e *Entry) { e.Children = "{mode}-{seq}" }), "modes", "say what each mode word means"},
		{"words without mode", with(func(e *Entry) { e.Modes = map[string]Mode{"R": ModeRead} }), "modes", "need {mode}"},
		{"unknown meaning", with(func(e *Entry) {
			e.Children, e.Grant, e.Modes = "{mode}-{seq}", GrantReadWrite, map[string]Mode{"R": "reading"}
		}), "modes", "meaning must be"},
		{"read in a mutex", with(func(e *Entry) { e.Children, e.Modes = "{mode}-{seq}", map[string]Mode{"R": ModeRead} }), "modes", "only grant read-write"},
		{"read-waits-on a mutex", with(func(e *Entry) { e.ReadWaitsOn = ReadFirstWrite }), "read-waits-on", "only grant read-write"},
		{"unknown read rule", with(func(e *Entry) { e.Grant, e.ReadWaitsOn = GrantReadWrite, "last-write" }), "read-waits-on", "must be"},
		{"unknown wait", with(func(e *Entry) { e.Waits = "poll" }), "waits", "must be"},
		{"lock-node on a queue", with(func(e *Entry) { e.Waits = WaitLockNode }), "waits", "single-node"},
		{"co-holders waiting", with(func(e *Entry) { e.Grant, e.Waits = GrantCoHolding, WaitPredecessor }), "waits", "never wait"},
		{"unknown order", with(func(e *Entry) { e.Order = "alpha" }), "order", "must be"},
		{"limit on a mutex", with(func(e *Entry) { e.Limit = "3" }), "limit", "only grant semaphore"},
		{"semaphore without limit", with(func(e *Entry) { e.Grant = GrantSemaphore }), "limit", "needs its lease count"},
		{"zero limit", with(func(e *Entry) { e.Grant, e.Limit = GrantSemaphore, "0" }), "limit", "positive"},
		{"unstated limit", with(func(e *Entry) { e.Grant, e.Limit = GrantSemaphore, "unstated" }), "limit", "positive"},
		{"single node with children", with(func(e *Entry) { e.Grant = GrantSingleNode }), "children", "no children"},
		{"single node without paths", with(func(e *Entry) { e.Grant, e.Children, e.Paths = GrantSingleNode, "", nil }), "children", "needs paths"},
		{"unknown identity", with(func(e *Entry) { e.Identity = "xml:host" }), "identity", "must be text"},
		{"json without field", with(func(e *Entry) { e.Identity = "json:" }), "identity", "field name"},
		{"regexp without group", with(func(e *Entry) { e.Identity = "data:host=.*" }), "identity", "needs a group"},
		{"bad regexp", with(func(e *Entry) { e.Identity = "data:(" }), "identity", "missing closing"},
		{"name of a missing part", with(func(e *Entry) { e.Identity = "name:id" }), "identity", "must name"},
		{"unknown decoder", with(func(e *Entry) { e.Identity = "decoder:protobuf" }), "identity", "no decoder"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := NewBook(tc.entries)
			var ee *EntryError
			if !errors.As(err, &ee) || !errors.Is(err, ErrBadEntry) || b != nil {
				t.Fatalf("NewBook = %v, %v; want an *EntryError and no book", b, err)
			}
			if ee.Field != tc.field || !strings.Contains(err.Error(), tc.says) || ee.Index != len(tc.entries) {
				t.Fatalf("error %q (entry %d, field %q); want entry %d, field %q, saying %q", err, ee.Index, ee.Field, len(tc.entries), tc.field, tc.says)
			}
		})
	}
}

func TestPathPatterns(t *testing.T) {
	cases := []struct {
		pattern, path string
		match         bool
	}{
		{"/acme/*", "/acme/orders", true},
		{"/acme/*", "/acme", false},
		{"/acme/*", "/acme/orders/x", false},
		{"/acme/**", "/acme", true},
		{"/acme/**", "/acme/a/b/c", true},
		{"/**/locks/*", "/locks/x", true},
		{"/**/locks/*", "/a/b/locks/x", true},
		{"/**/locks/*", "/a/b/locks", false},
		{"/hive/*/*/*=*", "/hive/db/t/ds=2026-11-26", true},
		{"/nifi/*", "/nifi/Primary Node", true},
		{"/lock-*", "/lock-orders", true},
		{"/", "/", true},
		{"/**", "/", true},
	}
	for _, tc := range cases {
		pp, err := compilePath(tc.pattern)
		if err != nil {
			t.Fatalf("%q: %v", tc.pattern, err)
		}
		if got := pp.match(tc.path); got != tc.match {
			t.Errorf("%q matches %q = %v, want %v", tc.pattern, tc.path, got, tc.match)
		}
	}
}

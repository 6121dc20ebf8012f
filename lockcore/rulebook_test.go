package lockcore

import (
	"errors"
	"strings"
	"testing"
)

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

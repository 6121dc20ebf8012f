package ui

import (
	"strings"
	"testing"

	"github.com/zklocks/zklocks/model"
)

func TestContextAndWriteModeInTheStatusBar(t *testing.T) {
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			a := newTestApp(t, sz.w, sz.h, func(o *Options) {
				o.Context, o.Contexts, o.Actions = "prod", []string{"prod", "staging"}, &model.Actions{}
			})
			lines := strings.Split(screen(a), "\n")
			status := lines[len(lines)-2]
			if !strings.Contains(status, "⎈ prod") || !strings.Contains(status, " WRITE ") {
				t.Fatalf("status bar: %q", status)
			}
			golden(t, "locks_context_write_"+sz.name, a)
		})
	}
	ro := newTestApp(t, 80, 24, func(o *Options) { o.ReadOnly, o.Actions = true, &model.Actions{} })
	if sc := screen(ro); strings.Contains(sc, " WRITE ") || !strings.Contains(sc, " READ-ONLY ") {
		t.Fatalf("read-only:\n%s", sc)
	}
	// A context marked read-only is named so on the badge, not only in
	// the refusals.
	byContext := newTestApp(t, 80, 24, func(o *Options) {
		o.Context, o.ReadOnly, o.ReadOnlyBadge, o.Actions = "prod", true, "READ-ONLY CONTEXT", &model.Actions{}
	})
	lines := strings.Split(screen(byContext), "\n")
	if status := lines[len(lines)-2]; !strings.Contains(status, "⎈ prod") || !strings.Contains(status, " READ-ONLY CONTEXT ") {
		t.Fatalf("read-only context, status bar: %q", status)
	}
}

func TestSwitchContext(t *testing.T) {
	var to string
	a := newTestApp(t, 80, 24, func(o *Options) {
		o.Context, o.Contexts = "prod", []string{"prod", "staging"}
		o.SwitchContext = func(name string) { to = name }
	})
	press(a, ":", "c", "t", "x", "enter")
	if !strings.Contains(screen(a), "contexts: prod, staging") {
		t.Fatalf(":ctx does not list:\n%s", screen(a))
	}
	press(a, ":")
	press(a, strings.Split("ctx nope", "")...)
	press(a, "enter")
	if to != "" || !strings.Contains(screen(a), "no context nope; there are: prod, staging") {
		t.Fatalf("switched to %q:\n%s", to, screen(a))
	}
	press(a, ":")
	press(a, strings.Split("ctx staging", "")...)
	if quit := press(a, "enter"); !quit || to != "staging" {
		t.Fatalf("quit %v, switched to %q", quit, to)
	}

	b := newTestApp(t, 80, 24, func(o *Options) {
		o.Context, o.Contexts, o.NoSwitch = "prod", []string{"prod", "staging"}, "--server is given"
	})
	press(b, ":")
	press(b, strings.Split("ctx staging", "")...)
	if quit := press(b, "enter"); quit || !strings.Contains(screen(b), "cannot switch context: --server is given") {
		t.Fatalf("quit %v:\n%s", quit, screen(b))
	}
}

// R leaves the live UI for a replay of its caller's history, on every
// screen; without a history it does nothing.
func TestOpenHistory(t *testing.T) {
	for _, tab := range []string{"1", "2", "3", "4"} {
		asked := 0
		a := newTestApp(t, 80, 24, func(o *Options) { o.OpenHistory = func() { asked++ } })
		press(a, tab)
		if quit := press(a, "R"); !quit || asked != 1 {
			t.Fatalf("screen %s: quit %v, asked %d", tab, quit, asked)
		}
	}
	b := newTestApp(t, 80, 24)
	if quit := press(b, "R"); quit {
		t.Fatal("R quit a UI whose caller keeps no history")
	}
}

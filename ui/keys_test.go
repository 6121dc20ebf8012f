package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
)

// modes are every combination of the modes that change the key maps.
func allKeyModes() []keyMode {
	var out []keyMode
	for _, demo := range []bool{false, true} {
		for _, replay := range []bool{false, true} {
			for _, operate := range []bool{false, true} {
				out = append(out, keyMode{demo: demo, replay: replay, operate: operate})
				out = append(out, keyMode{demo: demo, replay: replay, operate: operate, history: !replay})
			}
			out = append(out, keyMode{demo: demo, replay: replay, fleetOnly: true})
		}
	}
	return out
}

// collisions returns "key: a / b" for every key two of bs bind.
func collisions(bs []key.Binding) []string {
	owner := map[string]key.Binding{}
	var out []string
	for _, b := range bs {
		for _, k := range b.Keys() {
			if o, ok := owner[k]; ok {
				out = append(out, "'"+k+"': "+o.Help().Desc+" / "+b.Help().Desc)
				continue
			}
			owner[k] = b
		}
	}
	return out
}

func bindingsOf(s keySet) []key.Binding {
	var out []key.Binding
	for _, b := range s.bindings {
		out = append(out, *b.key)
	}
	return out
}

// TestKeyMapsHaveNoCollisions: on no screen, overlay, prompt or dialog, in
// no mode, does one key stand for two bindings, so that no order of
// checks ever decides which wins.
func TestKeyMapsHaveNoCollisions(t *testing.T) {
	for _, m := range allKeyModes() {
		k := newKeyMap(m)
		maps := map[string][]key.Binding{
			"help":   bindingsOf(k.helpKeys(&helpOverlay{})),
			"cost":   bindingsOf(k.costKeys(&costOverlay{})),
			"filter": k.filterKeys(),
		}
		for f := range focusCount {
			maps["screen "+itoa(int(f))] = bindingsOf(k.screenKeys(f))
		}
		for name, bs := range k.dialogKeys() {
			maps["dialog "+name] = bs
		}
		for name, bs := range maps {
			if c := collisions(bs); len(c) > 0 {
				t.Errorf("mode %+v, %s: %s", m, name, strings.Join(c, "; "))
			}
		}
	}
}

// TestShortHelpKeysWork: every key the one-line help shows does something
// on its screen.
func TestShortHelpKeysWork(t *testing.T) {
	for _, m := range allKeyModes() {
		k := newKeyMap(m)
		for f := range focusCount {
			s := k.screenKeys(f)
			for _, b := range s.short {
				for _, key := range b.Keys() {
					if _, ok := s.find(keyMsg(key)); !ok {
						t.Errorf("mode %+v, screen %d: the help shows %q (%s), which does nothing there",
							m, f, key, b.Help().Desc)
					}
				}
			}
		}
	}
}

// TestHelpListsTheScreensKeys: the help overlay lists what the focused
// screen binds, from its key map, and nothing it does not.
func TestHelpListsTheScreensKeys(t *testing.T) {
	a := newTestApp(t, 120, 40)
	press(a, "4", "?")
	sc := screen(a)
	for _, want := range []string{"zoom in", "busiest/selected", "next screen", "cost to servers"} {
		if !strings.Contains(sc, want) {
			t.Errorf("the timeline's help lacks %q:\n%s", want, sc)
		}
	}
	for _, unwanted := range []string{"page down", "filter", "read node again"} {
		if strings.Contains(sc, unwanted) {
			t.Errorf("the timeline's help lists %q, which it does not bind:\n%s", unwanted, sc)
		}
	}
	if cols := a.keys().columns(); !slices.ContainsFunc(cols[colScreen], func(b key.Binding) bool {
		return b.Help().Desc == "zoom in"
	}) {
		t.Errorf("the timeline's key map has no zoom in: %v", cols)
	}
}

// TestPlusZoomsOnTheTimelineAndAddsElsewhere: in a demo, + adds a
// contender on every screen but the timeline, where it zooms in.
func TestPlusZoomsOnTheTimelineAndAddsElsewhere(t *testing.T) {
	d := &fakeDemo{}
	a := newDemoApp(t, 120, 40, d)
	press(a, "4")
	zoom := a.timeline.zoom
	press(a, "+")
	if len(d.calls) != 0 || a.timeline.zoom != zoom-1 {
		t.Errorf("+ on the timeline: demo calls %v, zoom %d → %d; want no call and a zoom in", d.calls, zoom, a.timeline.zoom)
	}
	press(a, "1", "+")
	if got := strings.Join(d.calls, " "); got != "add" {
		t.Errorf("+ on the locks list: demo calls %q, want add", got)
	}
}

// TestUnboundKeyDoesNothing: a key the focused screen does not bind
// reaches no pane (x is the node screen's hex toggle, not the locks list's).
func TestUnboundKeyDoesNothing(t *testing.T) {
	a := newTestApp(t, 120, 40)
	before := screen(a)
	if cmd := a.handleKey(keyMsg("x")); cmd != nil || screen(a) != before {
		t.Errorf("x on the locks list did something")
	}
}

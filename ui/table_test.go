package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// TestFiguresAreNeverCut: a duration or count column is as wide as its
// widest cell at every width; the path is cut instead, and columns of
// short words give the path the cells they do not need.
func TestFiguresAreNeverCut(t *testing.T) {
	cols := []column{
		{title: "PATH", width: 16, flex: true, tail: true},
		{title: "RECIPE", width: 14, most: 20, min: 8, drop: 3},
		{title: "OLDEST", width: 6, right: true, whole: true, drop: 2},
		{title: "ANOMALIES", width: 24, most: 40, min: 9, drop: 1},
	}
	rows := [][]cell{
		{{text: "/services/scheduler/leader-lock"}, {text: "curator-semaphore"}, {text: "≤10m20s"}, {text: "herd"}},
		{{text: "/a"}, {text: "empty"}, {text: "1d2h"}, {text: "self-wait +2"}},
	}
	for _, w := range []int{40, 50, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			sized := sizeToContent(cols, rows...)
			widths := layout(sized, w)
			if widths[2] > 0 && widths[2] < width("≤10m20s") {
				t.Fatalf("OLDEST is %d cells: %v", widths[2], widths)
			}
			line := row(sized, widths, rows[0], false, paint{})
			if widths[2] > 0 && !strings.Contains(line, "≤10m20s") {
				t.Fatalf("figure cut: %q", line)
			}
			if w >= 50 && widths[3] == 0 {
				t.Fatalf("anomalies dropped at %d: %v", w, widths)
			}
			if w >= 80 && (widths[1] < width("curator-semaphore") || widths[3] < width("self-wait +2")) {
				t.Fatalf("short columns cut while the path has room: %v", widths)
			}
			if w >= 120 && !strings.Contains(line, "/services/scheduler/leader-lock") {
				t.Fatalf("path cut at %d: %q", w, line)
			}
		})
	}
}

// TestLongHoldsWholeOnEveryScreen: a hold of ten minutes or more is shown
// whole in the list, the detail and Sessions at 80 and 120 columns.
func TestLongHoldsWholeOnEveryScreen(t *testing.T) {
	for _, w := range []int{80, 120} {
		a := newTestApp(t, w, 24)
		l := newTree("/locks/long").kid(curator("lock-", 90, 1), sid(90), 10*time.Minute+20*time.Second, "").
			kid(curator("lock-", 91, 2), sid(91), 10*time.Minute+5*time.Second, "").analyze(nil, lockcore.Options{})
		addLock(a, l)
		for _, step := range []func(){
			func() {},
			func() { send(a, openLockMsg{path: "/locks/long"}) },
			func() { press(a, "esc", "2") },
		} {
			step()
			if sc := screen(a); !strings.Contains(sc, "≤10m20s") || strings.Contains(sc, "≤10m2…") {
				t.Fatalf("at %d columns:\n%s", w, sc)
			}
		}
	}
}

// TestFooterKeepsHelpAndQuit: at 80 columns with the operations on, the
// key help leaves keys out rather than cut "q quit".
func TestFooterKeepsHelpAndQuit(t *testing.T) {
	a := newTestApp(t, 80, 24, func(o *Options) { o.Actions = &model.Actions{} })
	send(a, openLockMsg{path: "/locks/orders"})
	lines := strings.Split(screen(a), "\n")
	last := lines[len(lines)-1]
	if !strings.Contains(last, "? help • q quit") || strings.Contains(last, "…") {
		t.Fatalf("footer: %q", last)
	}
}

// TestTitleKeepsTheSummaryWhole: at 80 columns the title bar gives the
// summary the other tabs' names rather than cut it.
func TestTitleKeepsTheSummaryWhole(t *testing.T) {
	a := newTestApp(t, 80, 24)
	press(a, "3")
	first := strings.Split(screen(a), "\n")[0]
	if !strings.Contains(first, "grants 4 · FIFO breaks 1 · 12 events") || !strings.Contains(first, "[3 Events]") {
		t.Fatalf("title: %q", first)
	}
}

// TestGoldenLongHoldDetail: the detail of a lock held for at most 25
// minutes, whose FOR is wider than its title, at both sizes.
func TestGoldenLongHoldDetail(t *testing.T) {
	a := newTestApp(t, 120, 40)
	send(a, openLockMsg{path: "/pool/workers"})
	golden(t, "detail_semaphore_120x40", a)
}

// TestAnomaliesStayAt50Columns: the locks list keeps the worst anomaly
// at 50 columns, where the recipe has gone.
func TestAnomaliesStayAt50Columns(t *testing.T) {
	a := newTestApp(t, 50, 24)
	sc := screen(a)
	if !lineWith(sc, "/app/kazoo/jobs", "wait-cycle") || !lineWith(sc, "/locks/orphans", "persistent") ||
		!strings.Contains(sc, "ANOMALIES") {
		t.Fatalf("anomalies at 50 columns:\n%s", sc)
	}
}

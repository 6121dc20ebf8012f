package ui

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestOneInstantPerFrame: the clock moves while a frame is drawn (here a
// second at each reading), yet a holder's row and the detail below it
// say the same hold, and a waiter's row and detail the same wait.
func TestOneInstantPerFrame(t *testing.T) {
	clock := t0
	a := newTestApp(t, 120, 40, func(o *Options) {
		o.Now = func() time.Time { clock = clock.Add(time.Second); return clock }
	})
	send(a, openLockMsg{path: "/locks/orders"})
	forCell := regexp.MustCompile(` (≤?[0-9][0-9hms]*[hms]) 0x`)
	for _, tc := range []struct {
		pos    int
		detail string // how the detail says the row's figure
	}{{0, "to %s"}, {3, "waiting for %s"}} {
		q := participant(t, a, "/locks/orders", tc.pos)
		a.detail.cur.idx = tc.pos
		a.detail.moved()
		clock = clock.Add(time.Minute) // the detail's lines were worked out a while ago
		sc := screen(a)
		var row string
		for _, l := range strings.Split(sc, "\n") {
			if strings.Contains(l, q.Node[len(q.Node)-10:]) {
				row = l
				break
			}
		}
		m := forCell.FindStringSubmatch(row)
		if m == nil {
			t.Fatalf("#%d: no FOR cell in %q:\n%s", tc.pos, row, sc)
		}
		figure := strings.TrimPrefix(m[1], "≤")
		if want := strings.Replace(tc.detail, "%s", figure, 1); !strings.Contains(sc, want) {
			t.Errorf("#%d: the row says %s, the detail not %q:\n%s", tc.pos, m[1], want, sc)
		}
	}
}

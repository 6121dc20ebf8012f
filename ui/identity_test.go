package ui

import (
	"strings"
	"testing"
)

// TestIdentityInTheStatusBar shows who the session is, and nothing when
// the caller gives no identity.
func TestIdentityInTheStatusBar(t *testing.T) {
	a := newTestApp(t, 120, 40, func(o *Options) { o.Server, o.Identity = "zk1:2181", "sasl:ops, super" })
	lines := strings.Split(screen(a), "\n")
	if status := lines[len(lines)-2]; !strings.Contains(status, "as sasl:ops, super") {
		t.Fatalf("status bar: %q", status)
	}
	none := newTestApp(t, 120, 40, func(o *Options) { o.Server = "zk1:2181" })
	if sc := screen(none); strings.Contains(sc, " as ") {
		t.Fatalf("an identity shows without one:\n%s", sc)
	}
}

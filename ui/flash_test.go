package ui

import (
	"strings"
	"testing"
)

// A message said on one screen goes when a key moves to another, where it
// would read as the new screen's; on the screen it was said on it stays.
func TestStatusMessageStaysWithItsScreen(t *testing.T) {
	const said = "force-release is unavailable"
	for _, tc := range []struct {
		name string
		keys []string
	}{
		{"another tab", []string{"2"}},
		{"a lock opened", []string{"enter"}},
		{"tab and back", []string{"tab", "shift+tab"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newTestApp(t, 80, 24, func(o *Options) { o.Actions = nil })
			press(a, "D")
			if !strings.Contains(screen(a), said) {
				t.Fatalf("D on the locks said nothing:\n%s", screen(a))
			}
			press(a, "j")
			if !strings.Contains(screen(a), said) {
				t.Fatalf("a key that stays on the screen took the message away:\n%s", screen(a))
			}
			press(a, tc.keys...)
			if strings.Contains(screen(a), said) {
				t.Errorf("the locks' message is still shown after %v:\n%s", tc.keys, screen(a))
			}
		})
	}
}

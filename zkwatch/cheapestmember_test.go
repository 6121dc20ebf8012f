package zkwatch

import (
	"testing"
	"time"
)

// TestCheapestMember checks which member a dump is asked of: the one whose
// answers took least time, the session's own among equals last, and never
// one whose cost is not known yet, so that the first dump goes to the
// session's member.
func TestCheapestMember(t *testing.T) {
	members := []string{"a:2181", "b:2181", "c:2181"}
	for _, tc := range []struct {
		name  string
		own   string
		spent map[string]time.Duration
		want  string
	}{
		{"nothing timed yet", "b:2181", nil, "b:2181"},
		{"only the session's member timed", "b:2181", map[string]time.Duration{"b:2181": 5 * time.Millisecond}, "b:2181"},
		{"the others timed, the session's member not", "b:2181", map[string]time.Duration{"a:2181": time.Millisecond, "c:2181": time.Millisecond}, "b:2181"},
		{"another took less", "b:2181", map[string]time.Duration{"a:2181": 30 * time.Millisecond, "b:2181": 200 * time.Millisecond, "c:2181": 20 * time.Millisecond}, "c:2181"},
		{"the session's member took least", "b:2181", map[string]time.Duration{"a:2181": 30 * time.Millisecond, "b:2181": 10 * time.Millisecond, "c:2181": 20 * time.Millisecond}, "b:2181"},
		{"equals: the session's member last", "b:2181", map[string]time.Duration{"a:2181": 10 * time.Millisecond, "b:2181": 10 * time.Millisecond, "c:2181": 10 * time.Millisecond}, "a:2181"},
		{"one not timed beside cheaper ones", "a:2181", map[string]time.Duration{"a:2181": 50 * time.Millisecond, "c:2181": 40 * time.Millisecond}, "c:2181"},
	} {
		got := cheapestMember(members, tc.own, func(m string) time.Duration { return tc.spent[m] })
		if got != tc.want {
			t.Errorf("%s: dump asked of %s, want %s", tc.name, got, tc.want)
		}
	}
}

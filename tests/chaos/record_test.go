package chaos

import (
	"strings"
	"testing"
	"time"
)

func TestLedgerViolations(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	stay := func(who string, k kind, token int64, from, to int) entry {
		return entry{lock: "/l", who: who, kind: k, limit: 2, token: token, enter: at(from), exit: at(to)}
	}
	told := func(e entry, ms int) entry { e.lostAt = at(ms); return e }
	for _, tc := range []struct {
		name    string
		entries []entry
		want    string // a substring of the only violation, "" for none
	}{
		{"exclusive in turn", []entry{stay("a", exclusive, 1, 0, 10), stay("b", exclusive, 2, 10, 20)}, ""},
		{"exclusive overlap", []entry{stay("a", exclusive, 1, 0, 10), stay("b", exclusive, 2, 5, 20)}, "exclusive b"},
		{"overlap after the loss was told", []entry{told(stay("a", exclusive, 1, 0, 10), 4), stay("b", exclusive, 2, 5, 20)}, ""},
		{"overlap told too late", []entry{told(stay("a", exclusive, 1, 0, 10), 6), stay("b", exclusive, 2, 5, 20)}, "exclusive b"},
		// Not the previous entry but one before it is still inside.
		{"a long reader under a writer", []entry{stay("r1", read, 1, 0, 30), stay("r2", read, 2, 5, 10), stay("w", write, 3, 20, 40)}, "write w"},
		{"tokens fall", []entry{stay("a", exclusive, 5, 0, 10), stay("b", exclusive, 2, 10, 20)}, "token 2"},
		{"readers share", []entry{stay("a", read, 1, 0, 10), stay("b", read, 2, 5, 20)}, ""},
		{"reader inside a writer", []entry{stay("w", write, 1, 0, 10), stay("r", read, 2, 5, 20)}, "reader r"},
		{"writer inside readers", []entry{stay("r", read, 1, 0, 10), stay("w", write, 2, 5, 20)}, "write w"},
		{"reader tokens may fall", []entry{stay("a", read, 5, 0, 10), stay("b", read, 2, 5, 20)}, ""},
		{"two leases of two", []entry{stay("a", lease, 1, 0, 10), stay("b", lease, 2, 5, 20)}, ""},
		{"three leases of two", []entry{stay("a", lease, 1, 0, 10), stay("b", lease, 2, 5, 20), stay("c", lease, 3, 6, 8)}, "holder 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l ledger
			for _, e := range tc.entries {
				l.add(e)
			}
			v := l.violations()
			switch {
			case tc.want == "" && len(v) > 0:
				t.Fatalf("unexpected: %v", v)
			case tc.want != "" && (len(v) != 1 || !strings.Contains(v[0], tc.want)):
				t.Fatalf("want one violation with %q, got %v", tc.want, v)
			}
		})
	}
}

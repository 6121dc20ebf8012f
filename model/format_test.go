package model

import (
	"github.com/zklocks/zklocks/lockcore"
	"testing"
)

// A children watch is named by the node whose children are watched.
func TestWatchedTextNamesTheNode(t *testing.T) {
	for _, tc := range []struct {
		w    lockcore.WatchTarget
		want string
	}{
		{lockcore.WatchTarget{Node: "*", Path: "/inhouse/reindex", Children: true}, "reindex/*"},
		{lockcore.WatchTarget{Node: "leases/*", Path: "/pool/workers/leases", Children: true}, "leases/*"},
		{lockcore.WatchTarget{Node: "lock-0000000001", Path: "/inhouse/reindex/lock-0000000001"}, "lock-0000000001"},
	} {
		if got := WatchedText(&tc.w); got != tc.want {
			t.Errorf("WatchedText(%+v) = %q, want %q", tc.w, got, tc.want)
		}
	}
}

// A byte count is given in the largest unit it reaches, to a tenth past
// bytes, each unit 1024 of the one before.
func TestBytesUnits(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0 B"},
		{1023, "1023 B"},
		{1024, "1.0 KB"},
		{1536, "1.5 KB"},
		{1<<20 - 1, "1024.0 KB"},
		{1 << 20, "1.0 MB"},
		{8 << 20, "8.0 MB"},
		{1 << 30, "1.0 GB"},
		{5 << 29, "2.5 GB"},
	} {
		if got := Bytes(tc.n); got != tc.want {
			t.Errorf("Bytes(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

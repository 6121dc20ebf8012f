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

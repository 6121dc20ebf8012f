package model

import (
	"fmt"
	"testing"

	"github.com/zklocks/zklocks/lockcore"
)

// TestContendersFindTheSameByScanAndByMaps holds the scan that finds a
// short reading's contenders to what the maps of a long one find, on
// readings with contenders read, not read yet, gone and new.
func TestContendersFindTheSameByScanAndByMaps(t *testing.T) {
	reading := func(n int, pendingEvery int, tokenBase int64) *lockcore.Lock {
		l := &lockcore.Lock{Path: "/locks/big"}
		for i := range n {
			p := lockcore.Participant{Node: fmt.Sprintf("lock-%010d", i), Token: tokenBase + int64(i)}
			p.Path = l.Path + "/" + p.Node
			if pendingEvery > 0 && i%pendingEvery == 0 {
				p.Pending, p.Token = true, 0
			}
			l.Participants = append(l.Participants, p)
		}
		return l
	}
	for _, tc := range []struct {
		name        string
		prev, next  *lockcore.Lock
		wantPending bool
		wantFound   int
	}{
		{name: "every contender read, same tokens", prev: reading(40, 0, 100), next: reading(45, 0, 100), wantFound: 40},
		{name: "a plain lock's new holders at the same paths", prev: reading(40, 0, 100), next: reading(40, 0, 500), wantFound: 0},
		{name: "some not read yet before", prev: reading(40, 3, 100), next: reading(40, 0, 100), wantPending: true, wantFound: 40},
		{name: "some not read yet after", prev: reading(30, 0, 100), next: reading(40, 4, 100), wantPending: true, wantFound: 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			maps := indexContenders(tc.prev, tc.next)
			if maps.byKey == nil {
				t.Fatalf("a reading of %d contenders was not indexed by maps", len(tc.prev.Participants))
			}
			if maps.pending != tc.wantPending {
				t.Fatalf("pending = %v, want %v", maps.pending, tc.wantPending)
			}
			scan := contenders{all: tc.prev.Participants, pending: maps.pending}
			found := 0
			for _, p := range tc.next.Participants {
				a, okA := maps.find(p)
				b, okB := scan.find(p)
				if okA != okB || a.Path != b.Path || a.Token != b.Token || a.Pending != b.Pending {
					t.Errorf("%s (token %d, pending %v): maps found %v %s/%d, the scan %v %s/%d",
						p.Path, p.Token, p.Pending, okA, a.Path, a.Token, okB, b.Path, b.Token)
				}
				if okA {
					found++
				}
			}
			if found != tc.wantFound {
				t.Errorf("found %d of %d, want %d", found, len(tc.next.Participants), tc.wantFound)
			}
		})
	}
}

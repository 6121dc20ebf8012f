package txnlog

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// Whether a node of many children is a lock, kept between the
// transactions that change nothing of it, is what reading it afresh
// says after every change to its children, itself or the semaphore it
// may be part of (a Curator semaphore's locks/, beside its leases/).
func TestLockNodeMemoFollowsTheTree(t *testing.T) {
	tr := newTree()
	at := time.UnixMilli(1_700_000_000_000)
	zxid := int64(1)
	tr.create("/s", nil, 0, -1, zxid, at)
	zxid++
	tr.create("/s/locks", nil, 0, -1, zxid, at)
	k := newTracker(tr, lockcore.Options{}, "", nil, func(zkwatch.Event) {})
	r := rand.New(rand.NewPCG(1, 2))
	var kids []string
	answers := map[bool]int{}
	for i := range 2000 {
		zxid++
		switch op := r.IntN(10); {
		case op < 5 || len(kids) < memoChildren:
			// First locks of their own (as a parent of many locks has),
			// then contenders and plain nodes among them.
			name := fmt.Sprintf("lock-%05d", i)
			if i < 1000 {
				if tr.create("/s/locks/"+name, nil, 0, -1, zxid, at) {
					kids = append(kids, name)
				}
				break
			}
			switch r.IntN(3) {
			case 0:
				name = fmt.Sprintf("lock-%010d", i)
			case 1:
				name = fmt.Sprintf("_c_0b6f8c2e-4f9d-4c1e-9a57-3c1f0f4f2b7a-lock-%010d", i)
			case 2:
				name = fmt.Sprintf("node%d", i)
			}
			owner := int64(0)
			if r.IntN(4) > 0 {
				owner = 0x100 + int64(r.IntN(8))
			}
			if tr.create("/s/locks/"+name, nil, owner, -1, zxid, at) {
				kids = append(kids, name)
			}
		case op < 9:
			j := r.IntN(len(kids))
			tr.remove("/s/locks/"+kids[j], zxid)
			kids = append(kids[:j], kids[j+1:]...)
		default:
			// The semaphore's leases come and go, or another node
			// changes: nothing of /s/locks's own.
			switch _, leases := tr.nodes["/s/leases"]; {
			case r.IntN(2) == 0:
				tr.create(fmt.Sprintf("/other%d", i), nil, 0, -1, zxid, at)
			case leases && r.IntN(2) == 0:
				tr.remove("/s/leases", zxid)
			case leases:
				tr.create(fmt.Sprintf("/s/leases/_c_0b6f8c2e-4f9d-4c1e-9a57-3c1f0f4f2b7a-lease-%010d", i), nil, 0x100, -1, zxid, at)
			default:
				tr.create("/s/leases", nil, 0, -1, zxid, at)
			}
		}
		for range 2 {
			want, _ := k.lockNode("/s/locks")
			if got := k.isLockNode("/s/locks"); got != want {
				t.Fatalf("after %d changes (%d children): kept answer %v, the tree's %v", i+1, len(kids), got, want)
			}
			answers[want]++
		}
	}
	if _, ok := k.memo["/s/locks"]; !ok || answers[true] == 0 || answers[false] == 0 {
		t.Errorf("kept %v; answers %v: the test did not see both answers kept", ok, answers)
	}
}

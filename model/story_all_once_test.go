package model

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

// failingSpill is a memSpill whose writes fail from the one numbered
// failFrom on (counting from 1; 0: none fails).
type failingSpill struct {
	memSpill
	writes, failFrom int
}

func (f *failingSpill) Write(p []byte) (int, error) {
	f.writes++
	if f.failFrom > 0 && f.writes >= f.failFrom {
		return 0, errors.New("disk full")
	}
	return f.memSpill.Write(p)
}

// Every lock's story told by a pass that tells each lock once, its
// story set down in the spill until the lines are written (or kept in
// memory from the write that failed on: during the pass, or among the
// stories), reads as a pass that keeps every entry and tells each lock
// twice tells it.
func TestTellAllTellsOnceAsTwice(t *testing.T) {
	for _, evs := range spillEvents(t) {
		var want bytes.Buffer
		whole := passOver(evs, 2, true, time.Time{}, time.Time{})
		if err := writeTold(&want, whole); err != nil {
			t.Fatal(err)
		}
		// The first run counts the pass's writes and the stories'.
		passWrites := 0
		for _, failFrom := range []int{0, 1, -2} {
			if failFrom < 0 {
				failFrom = passWrites - failFrom
			}
			spill := &failingSpill{failFrom: failFrom}
			p := spillingPass(evs, spill)
			before, passLen := spill.writes, spill.Len()
			var got bytes.Buffer
			if err := writeTold(&got, p); err != nil {
				t.Fatalf("writes failing from %d: %v", failFrom, err)
			}
			if got.String() != want.String() {
				t.Errorf("writes failing from %d: told once\n%s\ntold twice\n%s", failFrom, got.String(), want.String())
			}
			if failFrom == 0 {
				passWrites = before
				if spill.writes-before < len(whole.Locks()) || spill.Len()-passLen < want.Len()/2 {
					t.Errorf("%d stories set down, %d bytes of %d", spill.writes-before, spill.Len()-passLen, want.Len())
				}
			}
		}
	}
}

// Locks told side by side, over more than a window of them and a part
// of one, are set down in path order, each with its own story: as a pass
// that tells each lock twice, one at a time, tells them.
func TestTellAllTellsManyLocksInOrder(t *testing.T) {
	evs := frozenEvents()
	var each [][]zkwatch.Event
	for i := range 2*tellWindow + 5 {
		each = append(each, churn(fmt.Sprintf("/many/%03d", i), t0.Add(10*time.Second), 3+i%7))
	}
	for k := 0; ; k++ {
		more := false
		for _, lock := range each {
			if k < len(lock) {
				evs, more = append(evs, lock[k]), true
			}
		}
		if !more {
			break
		}
	}
	var want, got bytes.Buffer
	whole := passOver(evs, 2, true, time.Time{}, time.Time{})
	if err := writeTold(&want, whole); err != nil {
		t.Fatal(err)
	}
	if err := writeTold(&got, spillingPass(evs, &memSpill{})); err != nil {
		t.Fatal(err)
	}
	if n := len(whole.Locks()); n < 2*tellWindow+5 {
		t.Fatalf("%d locks told, want at least %d", n, 2*tellWindow+5)
	}
	if got.String() != want.String() {
		t.Errorf("told side by side\n%s\ntold one at a time\n%s", got.String(), want.String())
	}
}

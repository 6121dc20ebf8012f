package model

import (
	"fmt"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// BenchmarkReadLater: the state taking in what the watcher sends after a
// first sync from listings on a large cluster: 1,000 locks of six
// contenders listed, not read yet, then each contender read, one event a
// read, each lock again with one more contender read.
func BenchmarkReadLater(b *testing.B) {
	const locks, contenders = 1000, 6
	at := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	reading := func(i, read int) *lockcore.Lock {
		l := &lockcore.Lock{Path: fmt.Sprintf("/app/locks/group-%03d/lock-%05d", i/100, i), Recipe: lockcore.RecipeCuratorMutex, ReadAt: at}
		for j := range contenders {
			p := lockcore.Participant{Node: fmt.Sprintf("_c_%032x-lock-%010d", i*contenders+j, j), Seq: int64(j), HasSeq: true,
				Mode: lockcore.ModeExclusive, Role: lockcore.RoleWaiter, Position: j, Session: int64(j + 1), Ephemeral: true}
			p.Path = l.Path + "/" + p.Node
			if j == 0 {
				p.Role = lockcore.RoleHolder
			}
			if j < read {
				p.Token, p.Version, p.Ctime, p.Data = int64(i*contenders+j+1), 0, at, []byte("10.0.0.7")
			} else {
				p.Pending = true
			}
			l.Participants = append(l.Participants, p)
		}
		return l
	}
	var evs []zkwatch.Event
	for read := range contenders + 1 {
		for i := range locks {
			l := reading(i, read)
			evs = append(evs, zkwatch.Event{Kind: zkwatch.EventLock, At: at, Path: l.Path, Lock: l})
		}
		if read == 0 {
			evs = append(evs, zkwatch.Event{Kind: zkwatch.EventSynced, At: at, Discovery: zkwatch.Discovery{Complete: true}})
		}
	}
	b.ReportAllocs()
	for range b.N {
		s := NewState()
		for _, ev := range evs {
			s.Apply(ev)
		}
	}
}

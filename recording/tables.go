package recording

import (
	"fmt"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// tables are what the lines of one part refer back to: numbered paths
// and sessions, each path's last lock, the largest token and each path's
// largest sequence. The writer and the reader keep the same tables,
// updated from the same values, so a line means the same to both.
type tables struct {
	paths    map[string]int
	pathList []string
	sessions map[int64]int
	sessList []int64
	last     map[string]*lockcore.Lock
	lastSeq  map[string]int64
	maxToken int64
	// data is each session's last contender's data: clients store the
	// same (their address) in every node.
	data map[int64][]byte
	// lastLens are the last packed name's run lengths, which the next
	// packed name has unless it says otherwise.
	lastLens []int
	// clients are the part's last servers' reading's (format 6).
	clients map[int64]zkwatch.ClientInfo
}

func newTables() *tables {
	return &tables{paths: map[string]int{}, sessions: map[int64]int{}, last: map[string]*lockcore.Lock{},
		lastSeq: map[string]int64{}, data: map[int64][]byte{}}
}

// remember makes l the base of the next line of its path.
func (t *tables) remember(l *lockcore.Lock) {
	t.last[l.Path] = l
	for _, p := range l.Participants {
		if p.HasSeq && p.Seq > t.lastSeq[l.Path] {
			t.lastSeq[l.Path] = p.Seq
		}
		t.maxToken = max(t.maxToken, p.Token)
		// A contender not read yet has no data: its session's last
		// read data is still the best default.
		if p.Session != 0 && !p.Pending {
			t.data[p.Session] = p.Data
		}
	}
}

// derive fills what a line leaves out: positions, ages, chains and
// watchers.
func derive(l *lockcore.Lock) {
	for i := range l.Participants {
		p := &l.Participants[i]
		p.Position = i
		p.Age = lockcore.Age(l.ReadAt, p.Ctime)
		p.Chain, p.ChainCut = nil, false
	}
	lockcore.FillChains(l.Participants)
	byRule := lockcore.WatchersByRule(l.Participants)
	for i := range l.Participants {
		l.Participants[i].Watchers = byRule[l.Participants[i].Path]
	}
}

// The modes and roles lines spell with one letter; others are spelled
// out.
var (
	modeCodes = map[lockcore.Mode]string{lockcore.ModeExclusive: "x", lockcore.ModeRead: "r",
		lockcore.ModeWrite: "w", lockcore.ModeLease: "l"}
	roleCodes = map[lockcore.Role]string{lockcore.RoleHolder: "h", lockcore.RoleWaiter: "w"}
	modeOf    = reverse(modeCodes)
	roleOf    = reverse(roleCodes)
)

func reverse[K ~string](m map[K]string) map[string]K {
	r := map[string]K{}
	for k, v := range m {
		r[v] = k
	}
	return r
}

// newBase is what a new participant of l, read at, is taken to be before
// its stored fields: the lock's recipe, the next sequence and token,
// created at the read (to the millisecond), a waiter in the mode and with
// the data of the lock's last participant on the previous line, ephemeral
// when it has a session.
func newBase(t *tables, l *lockcore.Lock, at time.Time) lockcore.Participant {
	b := lockcore.Participant{Recipe: l.Recipe, HasSeq: true, Seq: t.lastSeq[l.Path] + 1, Token: t.maxToken + 1,
		Role: lockcore.RoleWaiter, Ctime: time.UnixMilli(at.UnixMilli())}
	if prev := t.last[l.Path]; prev != nil && len(prev.Participants) > 0 {
		last := prev.Participants[len(prev.Participants)-1]
		b.Mode, b.Data = last.Mode, last.Data
	}
	return b
}

// defaultWatch is a new participant's watch unless stored: on the one
// before it in the queue, as in an exclusive lock.
func defaultWatch(l *lockcore.Lock, i int) *lockcore.WatchTarget {
	if i == 0 {
		return nil
	}
	n := l.Participants[i-1].Node
	return &lockcore.WatchTarget{Node: n, Path: l.Path + "/" + n}
}

// seqSuffix is how ZooKeeper ends a sequential node's name: ten digits.
func seqSuffix(p lockcore.Participant) string {
	if !p.HasSeq {
		return "\x00" // matches no name
	}
	return fmt.Sprintf("%010d", p.Seq)
}

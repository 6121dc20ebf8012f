package txnlog

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch/jute"
)

// writeLog writes a data directory whose one log holds about n
// transactions after an empty snapshot.0: 32 sessions creating Curator
// contenders in locks and deleting them, as the benchmark's clients do.
func writeLog(tb testing.TB, n, locks int) string {
	w := newTxnWriter()
	for s := range int64(32) {
		w.session(0x100 + s)
	}
	w.create(0x100, jute.OpCreate, "/locks", false)
	for i := range locks {
		w.create(0x100, jute.OpCreate, fmt.Sprintf("/locks/l%05d", i), false)
	}
	for i := 0; int(w.zxid) < n; i++ {
		p := fmt.Sprintf("/locks/l%05d/_c_0b6f8c2e-4f9d-4c1e-9a57-3c1f0f4f2b7a-lock-%010d", i%locks, i/locks)
		s := 0x100 + int64(i%32)
		w.create(s, jute.OpCreate2, p, true)
		w.delete(s, p)
	}
	return w.dir(tb)
}

func TestWrittenLogTellsEveryHold(t *testing.T) {
	dir := writeLog(t, 20000, 100)
	res, err := Load(context.Background(), []string{dir}, Options{Lock: "/locks/l00042"})
	if err != nil {
		t.Fatal(err)
	}
	st := model.TellStory(res.Recording.Events, "/locks/l00042", time.Time{}, time.Time{})
	if len(res.Partial) > 0 || len(st.Holds) < 90 {
		t.Errorf("partial %v, %d holds", res.Partial, len(st.Holds))
	}
	for _, h := range st.Holds {
		if h.End != model.EndReleased && h.End != model.EndOngoing {
			t.Errorf("hold %+v", h)
		}
	}
}

func BenchmarkLoadOneLock(b *testing.B) {
	dir := writeLog(b, 500000, 1000)
	b.ResetTimer()
	for range b.N {
		res, err := Load(context.Background(), []string{dir}, Options{Lock: "/locks/l00042"})
		if err != nil {
			b.Fatal(err)
		}
		model.TellStory(res.Recording.Events, "/locks/l00042", time.Time{}, time.Time{})
	}
}

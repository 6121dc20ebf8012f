//go:build !race

package chaos

import (
	"context"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// kazooReaderCycle looks for kazoo 2.8's read-lock deadlock around the
// reader whose session is session, queued in dir: its session watches a
// write node queued after its own. The textbook reader watches the nearest
// earlier write; kazoo 2.8's watches the newest write in the whole queue,
// and that writer, by the rule, waits on the reader. It returns the
// evidence (the watch, read from the members' wchc, and the queue) when it
// finds the cycle, and "" otherwise, including when no member answers.
func kazooReaderCycle(observer *zk.Conn, members []*zktest.Server, dir string, session int64) string {
	names, _, err := observer.Children(dir)
	if err != nil {
		return ""
	}
	own := ""
	for _, n := range names {
		_, st, err := observer.Get(path.Join(dir, n))
		if err == nil && st.EphemeralOwner == session && strings.Contains(n, "__rlock__") {
			own = n
		}
	}
	if own == "" {
		return ""
	}
	for _, m := range members {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		text, err := words.FourLetter(ctx, m.Addr(), "wchc")
		cancel()
		if err != nil {
			continue // a member stopped by a leader kill
		}
		watches, err := words.ParseWchc(text)
		if err != nil {
			continue
		}
		for _, w := range watches[session] {
			name := path.Base(w)
			if path.Dir(w) == dir && strings.Contains(name, "__lock__") && sequence(name) > sequence(own) {
				return fmt.Sprintf("its session 0x%x watches the write node %s, queued after its own %s (member %s's wchc); the lock then:\n%s",
					session, name, own, m.Addr(), describeDir(observer, dir, nil))
			}
		}
	}
	return ""
}

// sequence is a sequential node name's suffix as written (ten digits, so
// it orders as text), by lockcore's own parsing; "" for any other name.
func sequence(name string) string { return lockcore.ParseName(name).SeqText }

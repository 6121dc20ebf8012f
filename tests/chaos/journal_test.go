//go:build !race

package chaos

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

// journal keeps the last of what the watcher said, so that a run whose
// watcher does not end with the true tree shows how it got there: each
// lock's last reports, and the connection's last changes, syncs and
// errors.
type journal struct {
	locks map[string][]string
	conn  []string
}

// journalKeep is how many lines are kept of each lock, and of the rest.
const journalKeep = 12

func (j *journal) add(ev zkwatch.Event) {
	at := ev.At.Format("15:04:05.000")
	switch ev.Kind {
	case zkwatch.EventLock:
		var ps []string
		for _, p := range ev.Lock.Participants {
			ps = append(ps, fmt.Sprintf("%s(0x%x)", p.Node, uint64(p.Session)))
		}
		j.lock(ev.Lock.Path, fmt.Sprintf("%s read: %d participants %s", at, len(ps), strings.Join(ps, " ")))
	case zkwatch.EventLockGone:
		j.lock(ev.Path, at+" gone")
	case zkwatch.EventConn:
		j.other(fmt.Sprintf("%s connection: %s", at, ev.Conn))
	case zkwatch.EventSynced:
		j.other(at + " synced")
	case zkwatch.EventError:
		j.other(fmt.Sprintf("%s error at %s: %v", at, ev.Path, ev.Err))
	}
}

func (j *journal) lock(path, line string) {
	if j.locks == nil {
		j.locks = map[string][]string{}
	}
	j.locks[path] = last(append(j.locks[path], line))
}

func (j *journal) other(line string) { j.conn = last(append(j.conn, line)) }

func last(lines []string) []string {
	if len(lines) > journalKeep {
		return slices.Clone(lines[len(lines)-journalKeep:])
	}
	return lines
}

// describe is the journal of the locks the watcher shows participants in,
// then the rest, as of now.
func (j *journal) describe(paths []string) string {
	var b strings.Builder
	for _, p := range paths {
		fmt.Fprintf(&b, "  %s, the watcher's last reports:\n", p)
		for _, l := range j.locks[p] {
			fmt.Fprintf(&b, "    %s\n", l)
		}
	}
	fmt.Fprintf(&b, "  the connection, syncs and errors (now %s):\n", time.Now().Format("15:04:05.000"))
	for _, l := range j.conn {
		fmt.Fprintf(&b, "    %s\n", l)
	}
	return b.String()
}

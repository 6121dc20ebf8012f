package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/tick"
)

// auditPoll is how often the audit log is looked at for new lines: a
// force-release is told within it of its line being written.
const auditPoll = 500 * time.Millisecond

// followAudit tells every action appended to the audit log at path, from
// the moment it starts, on a node under roots (all, when none), until ctx
// ends: a force-release made by another zklocks on this host (the CLI, a
// UI) is then known for what it was. A log that does not exist yet is
// waited for; one rotated or truncated is read again from its start. A
// line that is not an action is said once through warn, and skipped.
func followAudit(ctx context.Context, path string, roots []string, tell func(lockcore.Action), warn func(error)) {
	f := &auditFollower{path: path, roots: roots, tell: tell, warn: warn}
	f.offset, f.file = f.size()
	tick.Every(ctx, auditPoll, f.read)
}

type auditFollower struct {
	path   string
	roots  []string
	tell   func(lockcore.Action)
	warn   func(error)
	file   os.FileInfo // the log as last read: another one is read from its start
	offset int64
	warned bool
}

// size is the log's size and what it is now; 0 and nil when it is not there.
func (f *auditFollower) size() (int64, os.FileInfo) {
	fi, err := os.Stat(f.path)
	if err != nil {
		return 0, nil
	}
	return fi.Size(), fi
}

// read tells the whole lines appended since the last read.
func (f *auditFollower) read() {
	size, fi := f.size()
	if fi == nil {
		f.offset, f.file = 0, nil
		return
	}
	if f.file == nil || !os.SameFile(f.file, fi) || size < f.offset {
		f.offset = 0
	}
	f.file = fi
	if size == f.offset {
		return
	}
	file, err := os.Open(f.path)
	if err != nil {
		f.say(fmt.Errorf("audit log: %w", err))
		return
	}
	defer file.Close()
	b, err := io.ReadAll(io.NewSectionReader(file, f.offset, size-f.offset))
	if err != nil && !errors.Is(err, fs.ErrClosed) {
		f.say(fmt.Errorf("audit log: %w", err))
		return
	}
	// A line still being written is read next time, whole.
	end := bytes.LastIndexByte(b, '\n')
	if end < 0 {
		return
	}
	f.offset += int64(end + 1)
	for _, line := range bytes.Split(b[:end], []byte("\n")) {
		if line = bytes.TrimSpace(line); len(line) == 0 {
			continue
		}
		a, err := model.ParseAuditLine(line)
		if err != nil {
			f.say(fmt.Errorf("audit log %s: %w", f.path, err))
			continue
		}
		if under(a.Node, f.roots) {
			f.tell(a)
		}
	}
}

// say warns of the first trouble only: a log read every half second would
// repeat it.
func (f *auditFollower) say(err error) {
	if !f.warned {
		f.warned = true
		f.warn(err)
	}
}

// under reports whether node is under one of roots (all, when none).
func under(node string, roots []string) bool {
	if len(roots) == 0 {
		return true
	}
	for _, r := range roots {
		if r == "/" || node == r || strings.HasPrefix(node, strings.TrimSuffix(r, "/")+"/") {
			return true
		}
	}
	return false
}

// followingAudit is events with the actions appended to the audit log at
// path as it runs (see followAudit) merged in, as a running UI tells its
// own: the state, the exporter and a history then tell a force-release
// made from this host as one. "" follows nothing.
func followingAudit(ctx context.Context, events <-chan zkwatch.Event, path string, roots []string, warn func(error)) <-chan zkwatch.Event {
	if path == "" {
		return events
	}
	feed := model.NewActionFeed()
	go followAudit(ctx, path, roots, feed.TellAudited, warn)
	return feed.Merge(ctx, events)
}

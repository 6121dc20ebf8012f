package txnlog

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// member is one data directory's logs, read forward in zxid order from
// after a zxid.
type member struct {
	name  string
	dir   *Dir
	after int64
	idx   int
	cur   *logFile
	head  *Record
	// last is the zxid of the last record taken; missFrom, while not 0,
	// the first of a run of zxids the others had and this one lacks.
	last     int64
	missFrom int64
	missTo   int64
	// diffFrom, while not 0, is the first of a run of zxids this member
	// holds with other bytes than the others' copy, diffTo the last.
	diffFrom, diffTo int64
	notes            *notes
}

// notes are what a read says beside its events: why it is partial, and
// where members differ.
type notes struct {
	partial []string
	members []string
}

func (n *notes) addPartial(format string, args ...any) {
	n.partial = append(n.partial, fmt.Sprintf(format, args...))
}

func newMember(name string, d *Dir, after int64, n *notes) *member {
	m := &member{name: name, dir: d, after: after, notes: n}
	// Start at the last log that begins at or before the zxid wanted.
	for i, f := range d.logs {
		if f.zxid <= after+1 {
			m.idx = i
		}
	}
	return m
}

// peek is the member's next record, nil at the end of its logs. A log it
// cannot read on is noted partial, and the next log read.
func (m *member) peek() *Record {
	for m.head == nil {
		if m.cur == nil {
			if m.idx >= len(m.dir.logs) {
				return nil
			}
			l, err := openLog(m.dir.logs[m.idx].path)
			if err != nil {
				m.notes.addPartial("%s", plain(err))
				m.idx++
				continue
			}
			l.startReadAhead()
			m.cur = l
		}
		rec, err := m.cur.next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				m.notes.addPartial("%s", plain(err))
			}
			m.cur.Close()
			m.cur = nil
			m.idx++
			continue
		}
		if rec.Header.Zxid <= m.after || rec.Header.Zxid <= m.last {
			continue
		}
		m.head = &rec
	}
	return m.head
}

func (m *member) pop() {
	if m.head != nil {
		m.last = m.head.Header.Zxid
		m.head = nil
	}
}

func (m *member) close() {
	if m.cur != nil {
		m.cur.Close()
		m.cur = nil
	}
}

// merged reads several members' logs as one history.
type merged struct {
	members []*member
	// last is the zxid of the last transaction taken, or of the snapshot
	// read before the first.
	last  int64
	notes *notes
}

// next is the next transaction of the history: the lowest zxid any member
// has next. Members holding it with other bytes, members lacking it
// between records they have, and zxids no member holds are noted.
func (g *merged) next() (Record, bool) {
	var best *Record
	for _, m := range g.members {
		if h := m.peek(); h != nil && (best == nil || h.Header.Zxid < best.Header.Zxid) {
			best = h
		}
	}
	if best == nil {
		for _, m := range g.members {
			g.closeMiss(m)
			g.closeDiff(m)
			if len(g.members) > 1 && m.last != 0 && m.last < g.last {
				g.notes.members = append(g.notes.members, fmt.Sprintf("%s's logs end at zxid %#x; the others' go on to %#x (it was down or behind from then): they fill the rest", m.name, m.last, g.last))
				m.last = g.last
			}
		}
		return Record{}, false
	}
	rec := *best
	z := rec.Header.Zxid
	if !follows(g.last, z) {
		g.notes.addPartial("no log holds zxids %#x to %#x: what happened then is not known", g.last+1, z-1)
	}
	for _, m := range g.members {
		h := m.peek()
		switch {
		case h != nil && h.Header.Zxid == z:
			if h.Sum != rec.Sum {
				if m.diffFrom == 0 {
					m.diffFrom = z
				}
				m.diffTo = z
			} else {
				g.closeDiff(m)
			}
			m.pop()
			g.closeMiss(m)
		case m.last != 0 && h != nil:
			// It has records before and after z, not z: it was down or
			// behind, and the others fill it.
			if m.missFrom == 0 {
				m.missFrom = z
			}
			m.missTo = z
		}
	}
	g.last = z
	return rec, true
}

// closeDiff says the run of zxids m held with other bytes, once it ends:
// a run a line, where a member of another ensemble given by mistake
// would differ in every transaction.
func (g *merged) closeDiff(m *member) {
	if m.diffFrom == 0 {
		return
	}
	what := fmt.Sprintf("zxid %#x differs", m.diffFrom)
	if m.diffTo != m.diffFrom {
		what = fmt.Sprintf("zxids %#x to %#x differ", m.diffFrom, m.diffTo)
	}
	g.notes.members = append(g.notes.members, fmt.Sprintf("%s in %s from the other members' copy", what, m.name))
	m.diffFrom, m.diffTo = 0, 0
}

func (g *merged) closeMiss(m *member) {
	if m.missFrom == 0 || len(g.members) < 2 {
		m.missFrom = 0
		return
	}
	g.notes.members = append(g.notes.members, fmt.Sprintf("%s lacks zxids %#x to %#x (down or behind then): the other members' logs fill them", m.name, m.missFrom, m.missTo))
	m.missFrom, m.missTo = 0, 0
}

// flush says the runs of zxids still open where the read stopped (the
// range's end, before the logs').
func (g *merged) flush() {
	for _, m := range g.members {
		g.closeMiss(m)
		g.closeDiff(m)
	}
}

func (g *merged) close() {
	for _, m := range g.members {
		m.close()
	}
}

// follows reports whether zxid next comes right after prev: the next in
// the same epoch, or any in a later one (a new leader's epoch starts its
// counter again).
func follows(prev, next int64) bool {
	return next == prev+1 || next>>32 > prev>>32
}

// memberName is how a member's data directory is named in notes.
func memberName(p string) string { return filepath.Clean(p) }

// plain drops this package's prefix from an error for a note.
func plain(err error) string { return strings.TrimPrefix(err.Error(), "txnlog: ") }

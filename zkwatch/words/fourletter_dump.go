package words

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Ephemerals is what a dump reply says of the ephemeral nodes, reduced to
// what discovery needs: where they are. Any member's dump lists every
// session's ephemeral nodes, as every member holds the whole tree.
type Ephemerals struct {
	// Parents are the directories holding ephemeral nodes that keep
	// accepted: the candidate lock parents.
	Parents map[string]EphemeralParent
	// Nodes is every ephemeral node the dump listed, kept or not, and
	// Sessions the sessions owning them.
	Nodes, Sessions int
	// Owners, when not nil, is filled with the owning session of each
	// kept node whose name the reader's contender function accepts (a
	// lock recipe's contender name), by path: what a listing of the lock
	// leaves unknown of its contenders.
	Owners map[string]int64

	// dirs is every directory seen while reading, with its count so far,
	// or nil where keep refused it: keep is asked once a directory, and a
	// node under a directory already seen costs no allocation.
	dirs map[string]*EphemeralParent
}

// EphemeralParent is a directory holding ephemeral nodes, as a dump tells.
type EphemeralParent struct {
	// Count is how many ephemeral nodes it holds, and Sample the name of
	// one of them: a contender's name tells a lock parent without listing
	// it.
	Count  int
	Sample string
}

// addNode counts the ephemeral node name under dir, owned by session, when
// keep accepts dir (every node counts in Nodes), and notes its owner when
// contender accepts its name. dir and name may be views of a buffer the
// reader reuses: whatever is kept is copied.
func addNode[S ~string | ~[]byte](e *Ephemerals, dir, name S, session int64, keep, contender func(string) bool) {
	e.Nodes++
	if e.dirs == nil {
		e.dirs = map[string]*EphemeralParent{}
	}
	ep, seen := e.dirs[string(dir)]
	if !seen {
		d := string(dir)
		if keep(d) {
			ep = &EphemeralParent{}
		}
		e.dirs[d] = ep
	}
	if ep == nil {
		return
	}
	ep.Count++
	if ep.Sample == "" {
		ep.Sample = string(name)
	}
	if e.Owners != nil && session != 0 {
		if n := string(name); contender(n) {
			e.Owners[joinDir(string(dir), n)] = session
		}
	}
}

// finish moves the directories kept into Parents, once the answer is read.
func (e *Ephemerals) finish() {
	if e.Parents == nil {
		e.Parents = make(map[string]EphemeralParent, len(e.dirs))
	}
	for dir, ep := range e.dirs {
		if ep != nil {
			e.Parents[dir] = *ep
		}
	}
	e.dirs = nil
}

// ParseDump reads a dump reply:
//
//	SessionTracker dump:
//	…
//	ephemeral nodes dump:
//	Sessions with Ephemerals (1):
//	0x100006651cf0000:
//		/locks/a/_c_1234-lock-0000000000
//	Connections dump:
//	…
//
// and counts, by parent directory, the ephemeral nodes whose directory
// keep accepts (a server path; keep is asked once a directory). Only the
// counts and a name each are kept, so a dump of a million ephemeral nodes
// is read in memory that grows with the directories; with owners not nil,
// the owner of each kept node whose name contender accepts is added to it
// as well (see Ephemerals.Owners). Lines are read in place, not each
// copied: the UI reads a dump of 60,000 contenders every half minute.
func ParseDump(r *bufio.Reader, keep func(dir string) bool, owners map[string]int64, contender func(name string) bool) (Ephemerals, error) {
	e := Ephemerals{Owners: owners}
	inEphemerals, seen := false, false
	var session int64
	var long []byte
	for n := 1; ; n++ {
		var line []byte
		var err error
		line, long, err = readLine(r, long)
		if err != nil && !errors.Is(err, io.EOF) {
			return e, fmt.Errorf("words: dump line %d: %w", n, err)
		}
		switch {
		case bytes.HasPrefix(line, []byte("Sessions with Ephemerals")):
			inEphemerals, seen = true, true
		case bytes.HasPrefix(line, []byte("Connections dump")):
			inEphemerals = false
		case !inEphemerals || len(line) == 0:
		case bytes.HasPrefix(line, []byte("\t/")):
			dir, name := parentAndName(line[1:])
			addNode(&e, dir, name, session, keep, contender)
		case bytes.HasPrefix(line, []byte("0x")) && bytes.HasSuffix(line, []byte(":")):
			e.Sessions++
			id, perr := strconv.ParseUint(string(line[2:len(line)-1]), 16, 64)
			if perr != nil {
				return e, fmt.Errorf("words: dump line %d: session %q: %w", n, line, perr)
			}
			session = int64(id)
		default:
			return e, fmt.Errorf("words: dump line %d: unexpected %q among the ephemeral nodes", n, line)
		}
		if errors.Is(err, io.EOF) {
			break
		}
	}
	e.finish()
	if !seen {
		return e, fmt.Errorf("words: dump: no \"Sessions with Ephemerals\" section")
	}
	return e, nil
}

// readLine reads the next line without its end, in place in r's buffer
// (valid until the next read), or in long, which it returns for reuse,
// when the line is longer than the buffer.
func readLine(r *bufio.Reader, long []byte) (line, buf []byte, err error) {
	line, err = r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		long = append(long[:0], line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = r.ReadSlice('\n')
			long = append(long, line...)
		}
		line = long
	}
	return bytes.TrimRight(line, "\r\n"), long, err
}

// parentAndName splits a clean absolute path, as a server gives it, into
// its directory and its last element, without path.Split's cleaning: a
// dump lists a million of them.
func parentAndName[S ~string | ~[]byte](p S) (dir, name S) {
	i := -1
	for j := len(p) - 1; j >= 0; j-- {
		if p[j] == '/' {
			i = j
			break
		}
	}
	if i <= 0 {
		return S("/"), p[i+1:]
	}
	return p[:i], p[i+1:]
}

// joinDir is the path of name under dir.
func joinDir(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

package words

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
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
}

// EphemeralParent is a directory holding ephemeral nodes, as a dump tells.
type EphemeralParent struct {
	// Count is how many ephemeral nodes it holds, and Sample the name of
	// one of them: a contender's name tells a lock parent without listing
	// it.
	Count  int
	Sample string
}

// add counts the ephemeral node at p, owned by session, under its parent,
// when keep accepts it (every node counts in Nodes), and notes its owner
// when contender accepts its name.
func (e *Ephemerals) add(p string, session int64, keep, contender func(string) bool) {
	e.Nodes++
	if !keep(p) {
		return
	}
	dir, name := parentAndName(p)
	ep := e.Parents[dir]
	ep.Count++
	if ep.Sample == "" {
		ep.Sample = strings.Clone(name)
	}
	e.Parents[dir] = ep
	if e.Owners != nil && session != 0 && contender(name) {
		e.Owners[strings.Clone(p)] = session
	}
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
// and counts, by parent directory, the ephemeral nodes whose path keep
// accepts (server paths). Only the counts and a name each are kept, so a
// dump of a million ephemeral nodes is read in memory that grows with the
// parents kept; with owners not nil, the owner of each kept node whose
// name contender accepts is added to it as well (see Ephemerals.Owners).
func ParseDump(r *bufio.Reader, keep func(path string) bool, owners map[string]int64, contender func(name string) bool) (Ephemerals, error) {
	e := Ephemerals{Parents: map[string]EphemeralParent{}, Owners: owners}
	inEphemerals, seen := false, false
	var session int64
	for n := 1; ; n++ {
		line, err := r.ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return e, fmt.Errorf("words: dump line %d: %w", n, err)
		}
		line = strings.TrimRight(line, "\r\n")
		switch {
		case strings.HasPrefix(line, "Sessions with Ephemerals"):
			inEphemerals, seen = true, true
		case strings.HasPrefix(line, "Connections dump"):
			inEphemerals = false
		case !inEphemerals || line == "":
		case strings.HasPrefix(line, "\t/"):
			e.add(line[1:], session, keep, contender)
		case strings.HasPrefix(line, "0x") && strings.HasSuffix(line, ":"):
			e.Sessions++
			id, perr := strconv.ParseUint(line[2:len(line)-1], 16, 64)
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
	if !seen {
		return e, fmt.Errorf("words: dump: no \"Sessions with Ephemerals\" section")
	}
	return e, nil
}

// parentAndName splits a clean absolute path, as a server gives it, into
// its directory and its last element, without path.Split's cleaning: a
// dump lists a million of them.
func parentAndName(p string) (dir, name string) {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "/", p[i+1:]
	}
	return p[:i], p[i+1:]
}

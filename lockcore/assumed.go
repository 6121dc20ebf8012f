package lockcore

import (
	"fmt"
	"slices"
	"strings"
)

// modeWords are the words in a contender's name that say it asks for a
// read or a write, as read/write locks of every make name their nodes
// (read-, WRITE_, LOCK-SHARED-, rlock, R/W). A name carrying one is never
// taken for an exclusive lock's.
var modeWords = map[string]Mode{
	"read": ModeRead, "reader": ModeRead, "readlock": ModeRead, "rlock": ModeRead, "r": ModeRead,
	"shared": ModeRead, "share": ModeRead,
	"write": ModeWrite, "writer": ModeWrite, "writelock": ModeWrite, "wlock": ModeWrite, "w": ModeWrite,
	"exclusive": ModeWrite, "excl": ModeWrite,
}

// wordMode returns the mode a sequential name's words say, and the word;
// "" when they say none. A name with both a read and a write word is
// taken as a write, the stricter.
func wordMode(prefix string) (Mode, string) {
	var mode Mode
	var word string
	for _, w := range strings.FieldsFunc(prefix, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		m, ok := modeWords[strings.ToLower(w)]
		if ok && (mode == "" || m == ModeWrite) {
			mode, word = m, w
		}
	}
	return mode, word
}

// assumeSequential gives the fallback rule's contenders (names that only
// end in a sequence, which no entry describes) the modes their words say,
// and records what the rule assumes about them.
func assumeSequential(l *Lock, entries []*entry) {
	var sample string
	n, words := 0, map[Mode][]string{}
	for _, e := range entries {
		if e.name.Kind != KindSequential {
			continue
		}
		if n == 0 {
			sample = e.name.Raw
		}
		n++
		e.assumed = true
		if m, w := wordMode(e.name.Prefix); m != "" {
			e.mode = m
			if !slices.Contains(words[m], w) {
				words[m] = append(words[m], w)
			}
		}
	}
	if n == 0 {
		return
	}
	l.Assumed = append(l.Assumed, fmt.Sprintf("no rule book entry describes %d contenders named like \"%s\": taken as a lock in sequence order, "+
		"where the lowest holds and each waiter watches the one before it", n, sample))
	if len(words) > 0 {
		var said []string
		for _, m := range []Mode{ModeRead, ModeWrite} {
			for _, w := range words[m] {
				said = append(said, fmt.Sprintf("%q as %s", w, m))
			}
		}
		l.Assumed = append(l.Assumed, fmt.Sprintf("the names' words are read as modes (%s): a read holds while no write is ahead of it and waits on the nearest write",
			strings.Join(said, ", ")))
	}
}

// assumeNodeWord gives a plain ephemeral lock node whose own name says
// read or write ("/jobs/nightly-write-lock") that mode rather than
// exclusive, and its note says the mode comes from the name. Only the
// mode's word is taken from the name, and nothing judged of the lock
// rests on it (one node has one holder whatever its mode), so the lock
// is not marked assumed.
func assumeNodeWord(entries []*entry) {
	for _, e := range entries {
		if m, w := wordMode(e.name.Raw); m != "" {
			e.mode = m
			e.note = fmt.Sprintf("its mode, %s, is read from the word %q in its name; a single node has one holder at a time whatever its mode", m, w)
		}
	}
}

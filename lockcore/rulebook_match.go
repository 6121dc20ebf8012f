package lockcore

import (
	"regexp"
	"sort"
	"strings"
)

// A children pattern is matched by nameMatcher, not by its regexp: the
// regexp costs microseconds a child, and a client's lock can have a
// hundred thousand. The matcher accepts exactly the names the regexp does
// and captures the same text for each part (FuzzNameMatcher holds the two
// together): it tries each part's lengths in the order the regexp's
// leftmost-first rule prefers them, so that where a name can be split two
// ways it is split the same way.

// segKind is what one segment of a compiled children pattern matches.
type segKind uint8

const (
	segLiteral segKind = iota
	segFree            // {owner}, {id}: any non-empty text without a newline, shortest first
	segSeq             // ten digits, or '-' and nine or ten digits
	segSession         // 0x and 1 to 16 hex digits, or an optional '-' and 1 to 20 digits
	segMode            // one of the mode words, longest first
	segUUID            // 8-4-4-4-12 hex digits
	segHex             // hex digits, longest first
	segHex32           // 32 hex digits
	segDigits          // decimal digits, longest first
	segWord            // letters, digits and '_', longest first
)

// segment is one piece of a pattern: a literal, or a part (group is its
// index in compiled.groups).
type segment struct {
	kind  segKind
	lit   string
	group int
	words []string
}

// nameMatcher matches a child's whole name against a pattern's segments.
type nameMatcher struct {
	segs []segment
	// suffix is the literal text every match ends with, checked before
	// anything else; lastDigit says a match ends with a {seq}.
	suffix    string
	lastDigit bool
	// inner are the literals before the last, each of which a match
	// holds: a name without one is no match, found before any split is
	// tried (ParseName asks every built-in entry in turn).
	inner []string
	// re is the pattern's regexp, for the names the matcher gives up on.
	re *regexp.Regexp
}

// maxGroups is the number of parts: each appears at most once in a pattern.
const maxGroups = 5

// spans holds each group's start and end in the name, and the steps the
// matcher has left.
type spans struct {
	at    [maxGroups][2]int
	steps int
}

// partValues is the text of each part a name has, without a map: a
// child's name is read on every analysis of locks that can be very long.
type partValues struct {
	text [maxGroups]string
	has  [maxGroups]bool
}

// ordinal is p's place in parts.
func ordinal(p part) int {
	switch p {
	case partSeq:
		return 0
	case partMode:
		return 1
	case partOwner:
		return 2
	case partID:
		return 3
	}
	return 4
}

func (v *partValues) set(p part, s string) { v.text[ordinal(p)], v.has[ordinal(p)] = s, true }

// get is p's text, and whether the name has p at all.
func (v *partValues) get(p part) (string, bool) { return v.text[ordinal(p)], v.has[ordinal(p)] }

// formKinds maps a form ({id:hex}) to its segment kind.
var formKinds = map[string]segKind{"uuid": segUUID, "hex": segHex, "hex32": segHex32, "digits": segDigits, "word": segWord}

// modeWordOrder is the mode words in the order the regexp tries them: longest
// first so that a word that begins another does not cut it.
func modeWordOrder(modes map[string]Mode) []string {
	words := make([]string, 0, len(modes))
	for w := range modes {
		words = append(words, w)
	}
	sort.Slice(words, func(i, j int) bool {
		if len(words[i]) != len(words[j]) {
			return len(words[i]) > len(words[j])
		}
		return words[i] < words[j]
	})
	return words
}

// finish fills in the checks made before the segments are walked.
func (m *nameMatcher) finish() {
	if len(m.segs) == 0 {
		return
	}
	for _, s := range m.segs[:len(m.segs)-1] {
		if s.kind == segLiteral {
			m.inner = append(m.inner, s.lit)
		}
	}
	switch last := m.segs[len(m.segs)-1]; last.kind {
	case segLiteral:
		m.suffix = last.lit
	case segSeq:
		m.lastDigit = true
	}
}

// match reports whether name matches; sp receives each group's span.
func (m *nameMatcher) match(name string, sp *spans) bool {
	if !strings.HasSuffix(name, m.suffix) {
		return false
	}
	if m.lastDigit && (name == "" || !digitByte(name[len(name)-1])) {
		return false
	}
	for _, lit := range m.inner {
		if !strings.Contains(name, lit) {
			return false
		}
	}
	// A pattern of several unbounded parts can try a number of splits
	// that grows as the square of the name's length (a 16 KB name took 17
	// s); past a budget linear in its length the name goes to the
	// regexp, whose time is linear.
	sp.steps = 8*len(name) + 64
	if m.from(name, 0, 0, sp) {
		return true
	}
	if sp.steps >= 0 {
		return false
	}
	idx := m.re.FindStringSubmatchIndex(name)
	if idx == nil {
		return false
	}
	for g := range len(idx)/2 - 1 {
		sp.at[g] = [2]int{idx[2*g+2], idx[2*g+3]}
	}
	return true
}

// from matches segments segs[k:] against name[i:] to its end.
func (m *nameMatcher) from(name string, k, i int, sp *spans) bool {
	if sp.steps--; sp.steps < 0 {
		return false
	}
	if k == len(m.segs) {
		return i == len(name)
	}
	s := &m.segs[k]
	rest := name[i:]
	try := func(n int) bool {
		if s.kind != segLiteral {
			sp.at[s.group] = [2]int{i, i + n}
		}
		return m.from(name, k+1, i+n, sp)
	}
	switch s.kind {
	case segLiteral:
		return strings.HasPrefix(rest, s.lit) && m.from(name, k+1, i+len(s.lit), sp)
	case segFree:
		return m.free(name, k, i, sp)
	case segSeq:
		if len(rest) >= 10 && allDigitBytes(rest[:10]) && try(10) {
			return true
		}
		if rest == "" || rest[0] != '-' {
			return false
		}
		n := 1 + byteRun(head(rest[1:], 10), digitByte)
		return n >= 11 && try(11) || n >= 10 && try(10)
	case segSession:
		if strings.HasPrefix(rest, "0x") {
			for n := 2 + byteRun(head(rest[2:], 16), hexByte); n > 2; n-- {
				if try(n) {
					return true
				}
			}
		}
		if strings.HasPrefix(rest, "-") {
			for n := 1 + byteRun(head(rest[1:], 20), digitByte); n > 1; n-- {
				if try(n) {
					return true
				}
			}
		}
		for n := byteRun(head(rest, 20), digitByte); n > 0; n-- {
			if try(n) {
				return true
			}
		}
		return false
	case segMode:
		for _, w := range s.words {
			if strings.HasPrefix(rest, w) && try(len(w)) {
				return true
			}
		}
		return false
	case segUUID:
		return uuidAt(rest) && try(36)
	case segHex32:
		return len(rest) >= 32 && formRun(segHex, rest[:32]) == 32 && try(32)
	}
	n := formRun(s.kind, rest)
	sp.steps -= n
	for ; n > 0; n-- {
		if try(n) {
			return true
		}
	}
	return false
}

// free matches a free-text part at name[i:], shortest first as the
// regexp's (.+?) does; a literal after it is looked for rather than tried
// at every length.
func (m *nameMatcher) free(name string, k, i int, sp *spans) bool {
	s := &m.segs[k]
	limit := len(name)
	if nl := strings.IndexByte(name[i:], '\n'); nl >= 0 {
		limit = i + nl
	}
	sp.steps -= limit - i
	if k+1 == len(m.segs) {
		if limit != len(name) || limit == i {
			return false
		}
		sp.at[s.group] = [2]int{i, limit}
		return true
	}
	if next := m.segs[k+1]; next.kind == segLiteral {
		for from := i + 1; from <= limit; {
			at := strings.Index(name[from:], next.lit)
			if at < 0 || from+at > limit {
				return false
			}
			end := from + at
			sp.steps -= at
			sp.at[s.group] = [2]int{i, end}
			if m.from(name, k+1, end, sp) {
				return true
			}
			from = end + 1
		}
		return false
	}
	for end := i + 1; end <= limit; end++ {
		sp.at[s.group] = [2]int{i, end}
		if m.from(name, k+1, end, sp) {
			return true
		}
	}
	return false
}

// formRun is the length of s's leading bytes of form k; each form has its
// own loop, as calling a class function a byte doubles a match's cost.
func formRun(k segKind, s string) int {
	n := 0
	switch k {
	case segHex:
		for n < len(s) && hexByte(s[n]) {
			n++
		}
	case segDigits:
		for n < len(s) && digitByte(s[n]) {
			n++
		}
	default:
		for n < len(s) && wordByte(s[n]) {
			n++
		}
	}
	return n
}

// head is s's first n bytes, or s when shorter.
func head(s string, n int) string { return s[:min(len(s), n)] }

// byteRun is the length of s's leading bytes in a class.
func byteRun(s string, in func(byte) bool) int {
	n := 0
	for n < len(s) && in(s[n]) {
		n++
	}
	return n
}

func digitByte(b byte) bool { return '0' <= b && b <= '9' }

func hexByte(b byte) bool { return digitByte(b) || 'a' <= b && b <= 'f' || 'A' <= b && b <= 'F' }

func wordByte(b byte) bool {
	return hexByte(b) || 'g' <= b && b <= 'z' || 'G' <= b && b <= 'Z' || b == '_'
}

func allDigitBytes(s string) bool { return byteRun(s, digitByte) == len(s) }

// uuidAt reports whether s begins with a UUID's 36 characters.
func uuidAt(s string) bool {
	if len(s) < 36 {
		return false
	}
	for i := range 36 {
		switch i {
		case 8, 13, 18, 23:
			if s[i] != '-' {
				return false
			}
		default:
			if !hexByte(s[i]) {
				return false
			}
		}
	}
	return true
}

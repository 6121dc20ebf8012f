package lockcore

import (
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
}

// maxGroups is the number of parts: each appears at most once in a pattern.
const maxGroups = 5

// spans holds each group's start and end in the name.
type spans [maxGroups][2]int

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
	return m.from(name, 0, 0, sp)
}

// from matches segments segs[k:] against name[i:] to its end.
func (m *nameMatcher) from(name string, k, i int, sp *spans) bool {
	if k == len(m.segs) {
		return i == len(name)
	}
	s := &m.segs[k]
	rest := name[i:]
	try := func(n int) bool {
		if s.kind != segLiteral {
			sp[s.group] = [2]int{i, i + n}
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
		n := 1 + min(byteRun(rest[1:], digitByte), 10)
		return n >= 11 && try(11) || n >= 10 && try(10)
	case segSession:
		if strings.HasPrefix(rest, "0x") {
			for n := 2 + min(byteRun(rest[2:], hexByte), 16); n > 2; n-- {
				if try(n) {
					return true
				}
			}
		}
		if strings.HasPrefix(rest, "-") {
			for n := 1 + min(byteRun(rest[1:], digitByte), 20); n > 1; n-- {
				if try(n) {
					return true
				}
			}
		}
		for n := min(byteRun(rest, digitByte), 20); n > 0; n-- {
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
	for n := formRun(s.kind, rest); n > 0; n-- {
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
	if k+1 == len(m.segs) {
		if limit != len(name) || limit == i {
			return false
		}
		sp[s.group] = [2]int{i, limit}
		return true
	}
	if next := m.segs[k+1]; next.kind == segLiteral {
		for from := i + 1; from <= limit; {
			at := strings.Index(name[from:], next.lit)
			if at < 0 || from+at > limit {
				return false
			}
			end := from + at
			sp[s.group] = [2]int{i, end}
			if m.from(name, k+1, end, sp) {
				return true
			}
			from = end + 1
		}
		return false
	}
	for end := i + 1; end <= limit; end++ {
		sp[s.group] = [2]int{i, end}
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

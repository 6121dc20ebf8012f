package lockcore

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
)

// pathPattern is a compiled path pattern: its elements, and what lets
// most paths be refused without matching globs: whether it has "**", and
// its literal elements, each of which a matching path must hold.
type pathPattern struct {
	elems    []string
	literal  []bool
	double   bool
	literals []string
}

func compilePath(p string) (pathPattern, error) {
	if !strings.HasPrefix(p, "/") {
		return pathPattern{}, errors.New("must be absolute (begin with /)")
	}
	var pp pathPattern
	if p == "/" {
		return pp, nil
	}
	pp.elems = strings.Split(p[1:], "/")
	for _, el := range pp.elems {
		switch {
		case el == "":
			return pathPattern{}, errors.New("has an empty element (// or a trailing /)")
		case el == "**":
			pp.double = true
		case strings.Contains(el, "**"):
			return pathPattern{}, errors.New("** must be a whole element")
		default:
			if _, err := path.Match(el, ""); err != nil {
				return pathPattern{}, fmt.Errorf("element %q: %v", el, err)
			}
		}
		lit := el != "**" && !strings.ContainsAny(el, `*?[\`)
		pp.literal = append(pp.literal, lit)
		if lit {
			pp.literals = append(pp.literals, el)
		}
	}
	return pp, nil
}

// match reports whether the absolute path p matches.
func (pp pathPattern) match(p string) bool { return pp.matchElems(splitPath(p)) }

// splitPath is an absolute path's elements; none for the root.
func splitPath(p string) []string {
	if p == "/" || p == "" {
		return nil
	}
	return strings.Split(strings.TrimPrefix(p, "/"), "/")
}

// matchElems reports whether a path's elements match.
func (pp pathPattern) matchElems(elems []string) bool {
	if !pp.double {
		if len(elems) != len(pp.elems) {
			return false
		}
		for i, el := range pp.elems {
			if pp.literal[i] && el != elems[i] {
				return false
			}
		}
	}
	for _, lit := range pp.literals {
		if !slices.Contains(elems, lit) {
			return false
		}
	}
	return matchElems(pp.elems, elems)
}

// matchElems matches elements against a pattern's, "**" standing for any
// number of them. It keeps, for each pattern prefix, which element prefixes
// it matches: linear in each, however many "**" a pattern holds (trying each
// split of each "**" in turn takes exponential time).
func matchElems(pat, elems []string) bool {
	// can[j]: pat[:i] matches elems[:j], for the i of the loop.
	var buf [32]bool
	can := buf[:0]
	if len(elems) >= len(buf) {
		can = make([]bool, 0, len(elems)+1)
	}
	can = can[:len(elems)+1]
	can[0] = true
	for _, p := range pat {
		if p == "**" {
			for j := 1; j <= len(elems); j++ {
				can[j] = can[j] || can[j-1]
			}
			continue
		}
		for j := len(elems); j >= 1; j-- {
			ok, _ := path.Match(p, elems[j-1])
			can[j] = can[j-1] && ok
		}
		can[0] = false
	}
	return can[len(elems)]
}

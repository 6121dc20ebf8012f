package lockcore

import (
	"fmt"
	"strconv"
	"strings"
)

// Explanation says how the rule book read one lock: which entry describes
// it and why, which others came close and why they do not, and what was
// assumed rather than known.
type Explanation struct {
	Path   string
	Recipe Recipe
	// Entry is the entry that describes the lock; nil when none does.
	Entry *Entry
	// Why are the reasons the entry matched, or why none did.
	Why []string
	// Near are entries that came close: their paths match, or some of
	// the children match their pattern.
	Near []NearMiss
	// Assumed is what the analysis assumed (Lock.Assumed).
	Assumed []string
}

// NearMiss is an entry that came close to describing a lock.
type NearMiss struct {
	Entry Entry
	// WhyNot says what did not match.
	WhyNot string
}

// Explain says how the book reads the lock read as t, analysed as l (by
// Analyze with this book).
func (b *Book) Explain(t Tree, l Lock) Explanation {
	b = b.orBuiltin()
	x := Explanation{Path: t.Path, Recipe: l.Recipe, Assumed: l.Assumed}
	names := make([]string, len(t.Children))
	for i, c := range t.Children {
		names[i] = c.Name
	}
	elems := splitPath(t.Path)
	matched := b.byName(l.Entry)
	if matched != nil {
		e := matched.Entry
		x.Entry = &e
		x.Why = matched.reasons(t, elems, names)
	} else {
		x.Why = noEntry(t, l, names)
	}
	for _, c := range b.entries {
		if c == matched {
			continue
		}
		if whyNot, near := c.near(t, elems, names, l.Recipe); near {
			x.Near = append(x.Near, NearMiss{Entry: c.Entry, WhyNot: whyNot})
		}
	}
	return x
}

// reasons says why c describes the lock.
func (c *compiled) reasons(t Tree, elems []string, names []string) []string {
	var why []string
	for i, pp := range c.paths {
		if pp.matchElems(elems) {
			why = append(why, fmt.Sprintf("its path pattern %s matches %s", strconv.Quote(c.Paths[i]), strconv.QuoteToASCII(t.Path)))
			break
		}
	}
	switch {
	case c.Grant == GrantSingleNode && t.Absent:
		why = append(why, "it is a single node, absent now: free, and watched by whoever waits for it")
	case c.Grant == GrantSingleNode:
		why = append(why, "it is a single node, with no children, as the entry's grant single-node says")
	case len(names) == 0:
		why = append(why, "it has no children now: no contender holds or waits")
	default:
		n := 0
		for _, name := range names {
			if c.matches(name) {
				n++
			}
		}
		why = append(why, fmt.Sprintf("%d of %d children match its pattern %s", n, len(names), strconv.Quote(c.Children)))
	}
	hooks := strings.Join(c.Hooks, ", ")
	switch {
	case c.hooks.reads != nil:
		why = append(why, "read by its reads hook, as its client reads it where no grant rule says how; its hooks: "+hooks)
	case hooks != "":
		why = append(why, fmt.Sprintf("read by its fields: grant %s, waiters wait on %s; its hooks add what no field states: %s", c.Grant, c.Waits, hooks))
	default:
		why = append(why, fmt.Sprintf("read by its fields alone: grant %s, waiters wait on %s", c.Grant, c.Waits))
	}
	return why
}

// noEntry says why no entry describes the lock.
func noEntry(t Tree, l Lock, names []string) []string {
	switch {
	case t.Absent:
		return []string{"the path has no node, and no single-node entry's paths match it"}
	case len(l.Assumed) > 0:
		return []string{"no entry describes it (none whose paths match it and its children, none whose pattern matches every child): the fallback rule read it, and what that rule assumed is below"}
	case l.Recipe == RecipeMixed:
		return []string{"contenders of several recipes share the node: each contender is read by its own recipe's entry"}
	case len(names) == 0:
		return []string{"it has no children, and no entry's paths name it: not known to be a lock"}
	}
	return []string{fmt.Sprintf("none of its %d children is a contender of any entry, and none ends in a sequence: not a lock zklocks can read", len(names))}
}

// near reports whether c came close to describing the lock, and what did
// not match: its paths match, or some children match its pattern. An entry
// whose paths do not match, or that matches nothing, is not close.
func (c *compiled) near(t Tree, elems []string, names []string, read Recipe) (string, bool) {
	pathOK := len(c.paths) > 0 && c.matchesPath(elems)
	if len(c.paths) > 0 && !pathOK {
		return "", false
	}
	if c.Grant == GrantSingleNode {
		if len(names) == 0 || c.hooks.claims != nil {
			return "", false // a single node the entry would read, or a broad built-in path its claims hook narrows
		}
		return fmt.Sprintf("its paths match, but it is a single node and this one has %d children", len(names)), true
	}
	n, miss := 0, ""
	for _, name := range names {
		if c.matches(name) {
			n++
		} else if miss == "" {
			miss = name
		}
	}
	switch {
	case n == 0 && pathOK:
		if len(names) == 0 {
			return "", false
		}
		return fmt.Sprintf("its paths match, but none of the %d children matches its pattern %s (%s, for one)",
			len(names), strconv.Quote(c.Children), strconv.QuoteToASCII(miss)), true
	case n == 0:
		return "", false
	case n < len(names):
		return fmt.Sprintf("%d of %d children match its pattern %s, not %s", n, len(names), strconv.Quote(c.Children), strconv.QuoteToASCII(miss)), true
	}
	if c.hooks.shape != nil {
		return fmt.Sprintf("every child matches its pattern %s too, but its shape hook does not take the tree; it was read as %s", strconv.Quote(c.Children), read), true
	}
	return fmt.Sprintf("every child matches its pattern %s, but an entry before it in the book matched first", strconv.Quote(c.Children)), true
}

package lockcore

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Name kinds of contenders read by a rule book entry's pattern, by how the
// entry orders their sequences.
const (
	KindBookNumber NameKind = "book-number"
	KindBookText   NameKind = "book-text"
)

// Book is the rule book in force: the user's entries, then the built-in
// ones. A nil *Book is the built-in entries alone. A Book is read-only once
// made, so one may be shared by every analysis.
type Book struct {
	entries []*compiled
	// user is how many of entries are the user's (they come first).
	user int
	// byName indexes entries by name.
	byNameIndex map[string]*compiled
	// named, apps, extra and related are the built-in entries with each
	// hook, in the book's order, and readers those with kinds, whose
	// patterns ParseName reads names by (the built-in book's only).
	named, apps, extra, related, readers []*compiled
	// kinds maps each name kind a built-in entry lists to the first entry
	// that lists it, and the mode its word means there.
	kinds map[NameKind]kindOf
}

// kindOf is the entry of a name kind, and the mode of its contenders.
type kindOf struct {
	entry *compiled
	mode  Mode
}

// NewBook checks the user's entries and makes the book of them and the
// built-in ones. It refuses them all, with an *EntryError naming the first
// bad entry and its field, when any one is bad: a book is never half made.
// An entry may not take a built-in entry's name, nor another's.
func NewBook(user []Entry) (*Book, error) {
	builtin := builtinBook()
	b := &Book{user: len(user)}
	seen := map[string]bool{}
	for _, c := range builtin.entries {
		seen[c.Name] = true
	}
	for i, e := range user {
		if seen[e.Name] {
			what := "another entry's"
			if builtin.byName(e.Name) != nil {
				what = "a built-in entry's"
			}
			return nil, &EntryError{Index: i + 1, Name: e.Name, Field: "name", Reason: fmt.Sprintf("%q is %s name", e.Name, what)}
		}
		e.Builtin, e.Hooks = false, nil
		c, err := compile(e, i+1)
		if err != nil {
			return nil, err
		}
		seen[e.Name] = true
		b.entries = append(b.entries, c)
	}
	b.entries = append(b.entries, builtin.entries...)
	b.index()
	return b, nil
}

// Entries lists every entry, the user's first, as they were given (with
// the defaults they left out filled in).
func (b *Book) Entries() []Entry {
	b = b.orBuiltin()
	out := make([]Entry, len(b.entries))
	for i, c := range b.entries {
		out[i] = c.Entry
	}
	return out
}

// UserEntries is how many of Entries are the user's.
func (b *Book) UserEntries() int {
	if b == nil {
		return 0
	}
	return b.user
}

// Entry returns the entry named name.
func (b *Book) Entry(name string) (Entry, bool) {
	if c := b.orBuiltin().byName(name); c != nil {
		return c.Entry, true
	}
	return Entry{}, false
}

func (b *Book) orBuiltin() *Book {
	if b == nil {
		return builtinBook()
	}
	return b
}

func (b *Book) byName(name string) *compiled { return b.byNameIndex[name] }

// builtins is the built-in book, compiled once. It is set in init: its
// hooks read names by the book, so a variable's initializer could not
// refer to them.
var builtins func() *Book

func init() { builtins = sync.OnceValue(compileBuiltins) }

func compileBuiltins() *Book {
	b := &Book{kinds: map[NameKind]kindOf{}}
	shapes := builtinShapes()
	for i, e := range builtinEntries() {
		c, err := compile(e, i+1)
		if err != nil {
			panic("lockcore: built-in rule book: " + err.Error())
		}
		c.hooks = shapes[i].hooks
		b.entries = append(b.entries, c)
		if c.hooks.names != nil {
			b.named = append(b.named, c)
		}
		if c.hooks.app != nil {
			b.apps = append(b.apps, c)
		}
		if c.hooks.extra != nil {
			b.extra = append(b.extra, c)
		}
		if c.hooks.related != nil {
			b.related = append(b.related, c)
		}
		if c.hooks.kinds != nil {
			b.readers = append(b.readers, c)
		}
		for word, k := range c.hooks.kinds {
			if _, ok := b.kinds[k]; !ok {
				b.kinds[k] = kindOf{entry: c, mode: c.modeOfWord(word)}
			}
		}
	}
	b.index()
	return b
}

func (b *Book) index() {
	b.byNameIndex = make(map[string]*compiled, len(b.entries))
	for _, c := range b.entries {
		b.byNameIndex[c.Name] = c
	}
}

func builtinBook() *Book { return builtins() }

// describes returns the first entry that describes the lock at lockPath:
// its paths match and some child's name matches its pattern (or there
// are no children), or, for an entry without paths, every child's name
// matches; an entry with a shape hook takes the tree by that hook instead
// of its pattern, and a single-node entry with a claims hook takes only
// the node it claims. self is the lock node and names its children's
// names. absent says the lock path has no node: only a single-node entry
// without a claims hook can describe it, by its paths.
func (b *Book) describes(lockPath string, self Node, names []string, parsed []Name, absent bool) *compiled {
	if absent {
		return b.singleNode(lockPath)
	}
	v := &treeView{path: lockPath, self: self, names: names, parsed: parsed}
	return b.first(lockPath, func(c *compiled, elems []string) bool { return c.fits(elems, v) })
}

// first returns the first entry that takes the path's elements.
func (b *Book) first(path string, takes func(c *compiled, elems []string) bool) *compiled {
	elems := splitPath(path)
	for _, c := range b.orBuiltin().entries {
		if takes(c, elems) {
			return c
		}
	}
	return nil
}

// fits reports whether c describes the lock; elems are its path's
// elements. It says nothing of why not (Explain does), as it runs for
// every entry on every lock read.
func (c *compiled) fits(elems []string, v *treeView) bool {
	names := v.names
	if len(c.paths) > 0 && !c.matchesPath(elems) {
		return false
	}
	switch {
	case c.Grant == GrantSingleNode:
		return len(names) == 0 && (v.self.Ephemeral() || c.Persistent) && (c.hooks.claims == nil || c.hooks.claims(v.path, v.self))
	case len(names) == 0 && v.self.Ephemeral():
		// An ephemeral node has no children: it is no queue's lock node.
		return false
	case c.hooks.shape != nil:
		return c.hooks.shape(v.facts())
	case len(c.paths) == 0:
		// A tree shape: every child must be the entry's.
		for _, n := range names {
			if !c.matches(n) {
				return false
			}
		}
		return len(names) > 0 && (c.hooks.lockHas == nil || c.hooks.lockHas(names))
	}
	// Its paths name the lock: one child of its shape is enough, a stray
	// one is an unparsed anomaly.
	for _, n := range names {
		if c.matches(n) {
			return true
		}
	}
	return len(names) == 0
}

// matches reports whether a child's name matches c's children pattern
// (and is the client's own, when a hook narrows the pattern's parts).
func (c *compiled) matches(name string) bool {
	if c.hooks.accepts != nil {
		_, _, ok := c.parse(name)
		return ok
	}
	var sp spans
	return c.matcher.match(name, &sp)
}

func (c *compiled) matchesPath(elems []string) bool {
	for _, pp := range c.paths {
		if pp.matchElems(elems) {
			return true
		}
	}
	return false
}

// parse reads a child's name by c's pattern: its parts, and the Name the
// analysis orders it by.
func (c *compiled) parse(raw string) (Name, partValues, bool) {
	var sp spans
	var vals partValues
	if !c.matcher.match(raw, &sp) {
		return Name{Raw: raw, Kind: KindUnparsed}, vals, false
	}
	kind := KindBookNumber
	if c.Order == OrderText {
		kind = KindBookText
	}
	n := Name{Raw: raw, Kind: kind}
	for i, p := range c.groups {
		vals.set(p, raw[sp.at[i][0]:sp.at[i][1]])
	}
	if c.hooks.accepts != nil && !c.hooks.accepts(vals) {
		return Name{Raw: raw, Kind: KindUnparsed}, partValues{}, false
	}
	if c.hooks.kind != nil {
		n.Kind = c.hooks.kind(c.hooks.kinds, vals)
	}
	if s, ok := vals.get(partSeq); ok {
		n.SeqText = s
		n.Seq, _ = strconv.ParseInt(s, 10, 64)
		n.HasSeq = true
	}
	if s, ok := vals.get(partSession); ok {
		if d, neg := strings.CutPrefix(s, "-"); neg && isDecimal(d) {
			n.Session, _ = strconv.ParseInt(s, 10, 64)
			n.HasSession = true
		} else {
			n.Session, n.HasSession = parseSessionText(s)
		}
	}
	n.Prefix, _ = vals.get(partOwner)
	if n.Prefix == "" {
		n.Prefix, _ = vals.get(partID)
	}
	return n, vals, true
}

// readName reads a child's name by the first entry with kinds whose
// pattern reads it: a name in Curator's protected form (_c_…) only by an
// entry of that form, any other only by another. Its Prefix is the
// client's identifying part: the owner or id, else the session as
// written, else the mode word.
func (b *Book) readName(raw string) (Name, bool) {
	protected := strings.HasPrefix(raw, curatorPrefix)
	for _, c := range b.readers {
		if strings.HasPrefix(c.Children, curatorPrefix) != protected {
			continue
		}
		n, vals, ok := c.parse(raw)
		if !ok {
			continue
		}
		mode, _ := vals.get(partMode)
		n.Kind = ownKinds(c.hooks.kinds, vals)
		if n.Prefix == "" {
			n.Prefix, _ = vals.get(partSession)
		}
		if n.Prefix == "" {
			n.Prefix = mode
		}
		return n, true
	}
	return Name{}, false
}

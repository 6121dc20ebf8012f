package lockcore

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// ErrBadEntry: a rule book entry cannot be used; the *EntryError wrapping
// it names the entry and the field.
var ErrBadEntry = errors.New("lockcore: bad rule book entry")

// EntryError is why an entry was refused: which one (its place among the
// entries given, from 1, and its name) and which field.
type EntryError struct {
	Index  int
	Name   string
	Field  string
	Reason string
}

func (e *EntryError) Error() string {
	name := ""
	if e.Name != "" {
		name = fmt.Sprintf(" (%q)", e.Name)
	}
	return fmt.Sprintf("recipe %d%s: %s: %s", e.Index, name, e.Field, e.Reason)
}

// Unwrap makes errors.Is(err, ErrBadEntry) true.
func (e *EntryError) Unwrap() error { return ErrBadEntry }

// part names a named part of a children pattern.
type part string

const (
	partSeq     part = "seq"
	partMode    part = "mode"
	partOwner   part = "owner"
	partID      part = "id"
	partSession part = "session"
)

var parts = []part{partSeq, partMode, partOwner, partID, partSession}

// compiled is an entry made ready to match: its patterns compiled and its
// defaults filled in.
type compiled struct {
	Entry
	paths []pathPattern
	// name matches a child's whole name; group i+1 is groups[i]. It is
	// the reference: matcher, which matches the same names without a
	// regexp, is what reads children.
	name    *regexp.Regexp
	matcher nameMatcher
	groups  []part
	// limit is a semaphore's fixed lease count; limitData reads it from the
	// lock node's data instead.
	limit     int
	limitData bool
	identity  identityRule
	// hooks are a built-in entry's code for what its fields cannot state.
	hooks hooks
}

var entryName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,62}$`)

// compile checks e and compiles it; i is its place (from 1) for errors.
func compile(e Entry, i int) (*compiled, error) {
	bad := func(field, format string, args ...any) error {
		return &EntryError{Index: i, Name: e.Name, Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	c := &compiled{Entry: e}
	if !entryName.MatchString(e.Name) {
		return nil, bad("name", "must be 1 to 63 lowercase letters, digits or '-', starting with a letter or digit, not %q", e.Name)
	}
	if !slices.Contains(Grants(), e.Grant) {
		return nil, bad("grant", "must be %s, not %q", orList(Grants()), e.Grant)
	}
	for _, p := range e.Paths {
		pp, err := compilePath(p)
		if err != nil {
			return nil, bad("paths", "%q: %v", p, err)
		}
		c.paths = append(c.paths, pp)
	}
	if err := c.compileChildren(); err != nil {
		return nil, bad("children", "%v", err)
	}
	if field, err := c.checkModes(); err != nil {
		return nil, bad(field, "%v", err)
	}
	if field, err := c.fillRules(); err != nil {
		return nil, bad(field, "%v", err)
	}
	id, err := compileIdentity(e.Identity, c.groups)
	if err != nil {
		return nil, bad("identity", "%v", err)
	}
	c.identity = id
	return c, nil
}

// compileChildren turns the children pattern into the matcher's segments,
// and into the regexp over whole names that is the matcher's reference.
func (c *compiled) compileChildren() error {
	single := c.Grant == GrantSingleNode
	switch {
	case single && c.Children != "":
		return errors.New("a single-node lock has no children: leave it empty and name the node in paths")
	case single && len(c.Paths) == 0:
		return errors.New("a single-node lock needs paths naming its node (paths is empty)")
	case single:
		return nil
	case c.Children == "":
		return fmt.Errorf("grant %s needs a pattern of the contenders' names", c.Grant)
	}
	var re strings.Builder
	re.WriteString("^")
	rest := c.Children
	for rest != "" {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			open = len(rest)
		}
		if strings.IndexByte(rest[:open], '}') >= 0 {
			return fmt.Errorf("'}' without '{' in %q", c.Children)
		}
		re.WriteString(regexp.QuoteMeta(rest[:open]))
		if open > 0 {
			c.matcher.segs = append(c.matcher.segs, segment{kind: segLiteral, lit: rest[:open]})
		}
		if open == len(rest) {
			break
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			return fmt.Errorf("'{' without '}' in %q", c.Children)
		}
		inside := rest[open+1 : open+end]
		rest = rest[open+end+1:]
		name, form, typed := strings.Cut(inside, ":")
		p := part(name)
		if !slices.Contains(parts, p) {
			return fmt.Errorf("{%s} is no part: the parts are {seq}, {mode}, {owner}, {id} and {session}", inside)
		}
		formRE, known := textForms[form]
		switch {
		case typed && !free(p):
			return fmt.Errorf("{%s}: only {owner} and {id} take a form", inside)
		case typed && !known:
			return fmt.Errorf("{%s}: the forms are uuid, hex, hex32, digits and word, not %q", inside, form)
		}
		if slices.Contains(c.groups, p) {
			return fmt.Errorf("{%s} appears twice", p)
		}
		if p == partSeq && rest != "" {
			return fmt.Errorf("{seq} must come last: ZooKeeper appends the sequence to the name")
		}
		if free(p) && open == 0 && len(c.groups) > 0 && free(c.groups[len(c.groups)-1]) {
			return fmt.Errorf("{%s} follows {%s} with nothing between them, so where one ends is unknown", p, c.groups[len(c.groups)-1])
		}
		c.matcher.segs = append(c.matcher.segs, c.segmentOf(p, form, len(c.groups)))
		c.groups = append(c.groups, p)
		if typed {
			re.WriteString("(" + formRE + ")")
		} else {
			re.WriteString(c.partRegexp(p))
		}
	}
	re.WriteString("$")
	if !slices.Contains(c.groups, partSeq) && c.Grant != GrantCoHolding && c.Grant != GrantSemaphore {
		return fmt.Errorf("grant %s orders contenders by their sequence: the pattern needs {seq}", c.Grant)
	}
	c.matcher.finish()
	var err error
	c.name, err = regexp.Compile(re.String())
	c.matcher.re = c.name
	return err
}

// segmentOf is the matcher's segment for part p (of form form) that is
// group g.
func (c *compiled) segmentOf(p part, form string, g int) segment {
	s := segment{group: g, kind: segFree}
	switch {
	case form != "":
		s.kind = formKinds[form]
	case p == partSeq:
		s.kind = segSeq
	case p == partSession:
		s.kind = segSession
	case p == partMode:
		s.kind, s.words = segMode, modeWordOrder(c.Modes)
	}
	return s
}

// textForms narrow {owner} and {id} to a form ({id:uuid}).
var textForms = map[string]string{
	"uuid":   `[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`,
	"hex":    `[0-9a-fA-F]+`,
	"hex32":  `[0-9a-fA-F]{32}`,
	"digits": `[0-9]+`,
	"word":   `[A-Za-z0-9_]+`,
}

// free reports whether a part is free text (any name).
func free(p part) bool { return p == partOwner || p == partID }

// partRegexp is the regexp of one part; {mode} lists the mode words,
// longest first so that one word that begins another does not cut it.
func (c *compiled) partRegexp(p part) string {
	switch p {
	case partSeq:
		return `([0-9]{10}|-[0-9]{9,10})`
	case partSession:
		return `(0x[0-9a-fA-F]{1,16}|-?[0-9]{1,20})`
	case partMode:
		words := modeWordOrder(c.Modes)
		for i, w := range words {
			words[i] = regexp.QuoteMeta(w)
		}
		return "(" + strings.Join(words, "|") + ")"
	}
	return `(.+?)`
}

// checkModes checks the mode words against the pattern and the grant.
func (c *compiled) checkModes() (string, error) {
	hasMode := slices.Contains(c.groups, partMode)
	switch {
	case hasMode && len(c.Modes) == 0:
		return "modes", errors.New("the children pattern has {mode}: say what each mode word means")
	case !hasMode && len(c.Modes) > 0:
		return "modes", errors.New("mode words need {mode} in the children pattern")
	}
	for w, m := range c.Modes {
		if w == "" || strings.ContainsAny(w, "{}/") {
			return "modes", fmt.Errorf("mode word %q must be non-empty text without '{', '}' or '/'", w)
		}
		if !slices.Contains(Modes(), m) {
			return "modes", fmt.Errorf("mode word %q: meaning must be %s, not %q", w, orList(Modes()), m)
		}
		shared := m == ModeRead || m == ModeWrite
		switch {
		case shared && c.Grant != GrantReadWrite && c.Grant != GrantCoHolding:
			return "modes", fmt.Errorf("mode word %q means %s, which only grant read-write or co-holding gives", w, m)
		case m == ModeLease && c.Grant != GrantSemaphore:
			return "modes", fmt.Errorf("mode word %q means lease, which only grant semaphore gives", w)
		}
	}
	return "", nil
}

// fillRules checks the grant's own fields and fills in their defaults.
func (c *compiled) fillRules() (string, error) {
	if c.ReadWaitsOn != "" && c.Grant != GrantReadWrite {
		return "read-waits-on", fmt.Errorf("only grant read-write has readers to wait")
	}
	switch c.ReadWaitsOn {
	case "":
		if c.Grant == GrantReadWrite {
			c.ReadWaitsOn = ReadNearestWrite
		}
	case ReadFirstWrite, ReadNearestWrite:
	default:
		return "read-waits-on", fmt.Errorf("must be %s or %s, not %q", ReadFirstWrite, ReadNearestWrite, c.ReadWaitsOn)
	}
	if c.Waits == "" {
		c.Waits = map[Grant]Wait{GrantSemaphore: WaitChildren, GrantCoHolding: WaitNothing, GrantSingleNode: WaitLockNode}[c.Grant]
		if c.Waits == "" {
			c.Waits = WaitPredecessor
		}
	}
	switch {
	case !slices.Contains(Waits(), c.Waits):
		return "waits", fmt.Errorf("must be %s, not %q", orList(Waits()), c.Waits)
	case c.Grant == GrantSingleNode && c.Waits != WaitLockNode && c.Waits != WaitNothing:
		return "waits", fmt.Errorf("a single node's waiters can only watch it (lock-node) or nothing")
	case c.Grant != GrantSingleNode && c.Waits == WaitLockNode:
		return "waits", fmt.Errorf("lock-node is for grant single-node; a queue's waiters watch a predecessor or the children")
	case c.Grant == GrantCoHolding && c.Waits != WaitNothing:
		return "waits", fmt.Errorf("co-holders never wait: an acquirer that meets a conflict gives up its node (waits: nothing)")
	}
	switch c.Order {
	case "":
		c.Order = OrderNumber
	case OrderNumber, OrderText:
	default:
		return "order", fmt.Errorf("must be %s or %s, not %q", OrderNumber, OrderText, c.Order)
	}
	return c.fillLimit()
}

func (c *compiled) fillLimit() (string, error) {
	switch {
	case c.Grant != GrantSemaphore && c.Limit != "":
		return "limit", fmt.Errorf("only grant semaphore has a limit")
	case c.Grant != GrantSemaphore:
		return "", nil
	case c.Limit == limitUnstated && c.Builtin:
		return "", nil
	case c.Limit == "data":
		c.limitData = true
		return "", nil
	case c.Limit == "":
		return "limit", fmt.Errorf("a semaphore needs its lease count: a number, or data (the lock node's data)")
	}
	n, err := strconv.Atoi(c.Limit)
	if err != nil || n <= 0 {
		return "limit", fmt.Errorf("must be a positive number or data, not %q", c.Limit)
	}
	c.limit = n
	return "", nil
}

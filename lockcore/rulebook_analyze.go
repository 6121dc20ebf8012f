package lockcore

import (
	"fmt"
	"slices"
	"sort"
)

// bookEntries reads a lock by a rule book entry: by its reads hook when it
// has one, else by its fields, each child parsed by its pattern, its mode
// by its words, and roles and watches by the entry's grant and wait rules.
func bookEntries(l *Lock, c *compiled, t Tree, w *WatchTable) []*entry {
	if c.hooks.reads != nil {
		return c.hooks.reads(l, t, w)
	}
	if c.Grant == GrantSingleNode {
		return singleNodeEntries(l, c, t, w)
	}
	l.Recipe, l.Entry = Recipe(c.Name), c.Name
	var read []*entry
	for _, n := range t.Children {
		name, vals, ok := c.parse(n.Name)
		p := JoinPath(t.Path, n.Name)
		e := &entry{node: n, name: name, path: p, rel: relativeTo(t.Path, p)}
		if !ok {
			e.name = ParseName(n.Name)
			a := unparsedAnomaly(e)
			a.Detail = fmt.Sprintf("name does not match %s's pattern %q, so its clients do not count it as a contender", c.Name, c.Children)
			l.Anomalies = append(l.Anomalies, a)
			continue
		}
		e.recipe, e.mode = l.Recipe, c.modeOf(vals)
		e.noWatch, e.persistentOK = c.Waits == WaitNothing, c.Persistent
		e.identity = c.identity.identify(vals, n)
		read = append(read, e)
	}
	if len(read) == 0 && len(t.Children) == 0 {
		l.Entry = c.Name // an empty lock of a known recipe
	}
	// Grants go in the client's order; the entries stay in the order the
	// children were read, as every other reading keeps them.
	entries := slices.Clone(read)
	sort.SliceStable(entries, func(i, j int) bool { return before(entries[i].name.Kind, entries[i], entries[j]) })
	switch c.Grant {
	case GrantMutex, GrantElection:
		for i, e := range entries {
			c.grantAt(e, i == 0, entries, i, t.Path)
		}
	case GrantReadWrite:
		c.grantReadWrite(entries, t.Path)
	case GrantSemaphore:
		limit := c.limit
		if c.limitData {
			l.MaxLeases = maxLeasesOf(t.Self)
			if l.MaxLeases == nil {
				limit = 1
				l.Assumed = append(l.Assumed, fmt.Sprintf("the lease limit is not in the lock node's data as %s says (data %s): only the lowest node is taken to hold",
					c.Name, quoteData(t.Self.Data)))
			} else {
				limit = *l.MaxLeases
			}
		} else {
			l.MaxLeases = &limit
		}
		for i, e := range entries {
			c.grantAt(e, i < limit, entries, i, t.Path)
		}
	case GrantCoHolding:
		for _, e := range entries {
			e.role = RoleHolder
		}
	}
	return read
}

// readsOwnWrite asks c's hook whether reader e holds by its session's
// first write, and notes why.
func (c *compiled) readsOwnWrite(e, firstWrite *entry) bool {
	note, holds := c.hooks.readsOwnWrite(e, firstWrite)
	if holds {
		e.note = note
	}
	return holds
}

// modeOf is what a contender asks for: its mode word's meaning, else the
// grant's one mode.
func (c *compiled) modeOf(vals partValues) Mode {
	w, _ := vals.get(partMode)
	return c.modeOfWord(w)
}

// modeOfWord is the mode a contender of mode word w is in.
func (c *compiled) modeOfWord(w string) Mode {
	if m, ok := c.Modes[w]; ok {
		return m
	}
	if c.Grant == GrantSemaphore {
		return ModeLease
	}
	return ModeExclusive
}

// grantAt makes entries[i] a holder, or a waiter that waits by c's rule on
// its predecessor.
func (c *compiled) grantAt(e *entry, holds bool, entries []*entry, i int, lockPath string) {
	if holds {
		e.role = RoleHolder
		return
	}
	e.role = RoleWaiter
	e.rule = c.waitTarget(entries[i-1], lockPath)
}

// waitTarget is what a waiter watches by c's rule, given the node it waits
// for.
func (c *compiled) waitTarget(on *entry, lockPath string) *WatchTarget {
	switch c.Waits {
	case WaitChildren:
		return &WatchTarget{Node: "*", Path: lockPath, Children: true}
	case WaitNothing:
		return nil
	}
	return &WatchTarget{Node: on.rel, Path: on.path}
}

// grantReadWrite: a write (or exclusive) contender holds when first and
// waits on its predecessor otherwise; a read holds when no write is ahead,
// and otherwise waits on the write ReadWaitsOn names.
func (c *compiled) grantReadWrite(entries []*entry, lockPath string) {
	var firstWrite, lastWrite *entry
	for i, e := range entries {
		switch {
		case e.mode == ModeRead && firstWrite == nil:
			e.role = RoleHolder
		case e.mode == ModeRead && firstWrite == entries[0] && c.hooks.readsOwnWrite != nil && c.readsOwnWrite(e, firstWrite):
			e.role = RoleHolder
		case e.mode == ModeRead:
			e.role = RoleWaiter
			on := lastWrite
			if c.ReadWaitsOn == ReadFirstWrite {
				on = firstWrite
			}
			e.rule = c.waitTarget(on, lockPath)
		default:
			c.grantAt(e, i == 0, entries, i, lockPath)
		}
		if e.mode != ModeRead {
			if firstWrite == nil {
				firstWrite = e
			}
			lastWrite = e
		}
	}
}

// singleNodeEntries reads a single-node entry's lock: its creator holds,
// and the sessions watching it wait (unless the entry says they do not).
func singleNodeEntries(l *Lock, c *compiled, t Tree, w *WatchTable) []*entry {
	entries := ephemeralEntries(l, t, w)
	l.Recipe, l.Entry = Recipe(c.Name), c.Name
	if c.Waits == WaitNothing {
		l.HiddenWaiters, l.Observers = nil, nil
	}
	for _, e := range entries {
		e.recipe, e.persistentOK = l.Recipe, c.Persistent
		e.identity = c.identity.identify(partValues{}, e.node)
	}
	return entries
}

package lockcore

// Discovery by the rule book: the entries found by their fields (the
// user's, and built-in ones without a reads or claims hook) say what is a
// lock beside the shapes Classify, LooksLikeLockNode and IsAppLockNode
// know, which find the others.

// Classify is Classify with the book's entries: a node an entry's paths
// match, or (for an entry without paths) whose children all match its
// pattern, is a lock when a child's name matches the entry's pattern,
// ephemeral or not (Hive's LOCK TABLE nodes are persistent). Otherwise the
// built-in shapes decide, as Classify does.
func (b *Book) Classify(path string, self Node, childNames []string) (Candidate, string) {
	if len(childNames) > 0 {
		v := &treeView{path: path, self: self, names: childNames}
		if c := b.first(path, func(c *compiled, elems []string) bool {
			return c.hooks.reads == nil && c.Grant != GrantSingleNode && c.fits(elems, v)
		}); c != nil {
			return IsALock, ""
		}
	}
	return Classify(self, childNames)
}

// IsLockNode reports whether a childless node at path is a lock node by
// the book: a single-node entry's paths match it, or, as
// LooksLikeLockNode says, its path mentions lock or mutex. The caller
// checks that the node is ephemeral, or that the entry allows persistent.
func (b *Book) IsLockNode(path string) bool {
	return b.singleNode(path) != nil || LooksLikeLockNode(path)
}

// SingleNodeEntry returns the name of the single-node entry read by its
// fields whose paths match path, if any, and whether it allows the node to
// be persistent.
func (b *Book) SingleNodeEntry(path string) (name string, persistent, ok bool) {
	if c := b.singleNode(path); c != nil {
		return c.Name, c.Persistent, true
	}
	return "", false, false
}

// singleNode is the first single-node entry whose paths match path and
// whose node no claims hook has to see (the applications' and the plain
// node's are found by IsAppLockNode and LooksLikeLockNode).
func (b *Book) singleNode(path string) *compiled {
	return b.first(path, func(c *compiled, elems []string) bool {
		return c.Grant == GrantSingleNode && c.hooks.claims == nil && c.matchesPath(elems)
	})
}

package lockcore

import "slices"

// SameFor reports whether Analyze reads the same of tree t in w as in o:
// both tables absent, or both unusable for t for the same reason, or both
// usable with the same sessions watching the lock's path and each of its
// nodes, and each node as new or as old against the table read before. A watcher given a new table analyses again only the locks for
// which it is not the same.
func (w *WatchTable) SameFor(o *WatchTable, t Tree) bool {
	if (w == nil) != (o == nil) {
		return false
	}
	if w == nil {
		return true
	}
	gap := w.gap(t)
	if gap != o.gap(t) {
		return false
	}
	if gap != "" {
		return true
	}
	same := func(p string) bool { return slices.Equal(w.byPath[p], o.byPath[p]) }
	if !same(t.Path) || !w.sameObservers(o, t.Path) {
		return false
	}
	for _, n := range t.Children {
		if !same(JoinPath(t.Path, n.Name)) || w.tooNew(n.Stat.Czxid) != o.tooNew(n.Stat.Czxid) {
			return false
		}
	}
	for dir, nodes := range t.Extra {
		for _, n := range nodes {
			if !same(JoinPath(dir, n.Name)) || w.tooNew(n.Stat.Czxid) != o.tooNew(n.Stat.Czxid) {
				return false
			}
		}
	}
	return true
}

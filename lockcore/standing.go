package lockcore

import (
	"path"
	"sort"
)

// standing is where one contender stands in its queue by its recipe's
// rule: what the lock client needs on each wake, without the whole
// analysis (chains, anomalies) that Analyze adds.
type standing struct {
	holder   bool
	watch    string // absolute path of the node to wait on
	position int
	// watchHeads: the node waited on is first in queue order, so that,
	// once it is gone, no node it waited on can still stand ahead of us.
	watchHeads bool
}

// standingOf evaluates our node (its name) among dir's children names.
func standingOf(dir string, names []string, ours string) (standing, bool) {
	var scratch Lock
	scratch.Path = dir
	entries, _ := scanQueue(&scratch, dir, namesOnly(names))
	var me *entry
	for _, e := range entries {
		if e.node.Name == ours {
			me = e
			break
		}
	}
	if me == nil {
		return standing{}, false
	}
	sort.Slice(entries, func(i, j int) bool { return queueLess(entries[i], entries[j]) })
	pos := 0
	for i, e := range entries {
		if e == me {
			pos = i
		}
	}
	s := standing{holder: me.role == RoleHolder, position: pos}
	if me.rule != nil {
		s.watch = me.rule.Path
		s.watchHeads = entries[0].node.Name == path.Base(s.watch)
	}
	return s, true
}

package lockcore

import (
	"path"
	"sort"
)

// Standing is where one contender stands in its queue by its recipe's
// rule: what a lock client needs on each wake, without the whole analysis
// (chains, anomalies) that Analyze adds.
type Standing struct {
	// Holder: the contender holds.
	Holder bool
	// Watch is the absolute path of the node it waits on; empty for a
	// holder.
	Watch string
	// Position is its place in queue order, from 0.
	Position int
	// WatchHeads: the node waited on is first in queue order, so that,
	// once it is gone, no node it waited on can still stand ahead of us.
	WatchHeads bool
}

// StandingOf evaluates our node (its name) among dir's children names;
// false when ours is not among the contenders.
func StandingOf(dir string, names []string, ours string) (Standing, bool) {
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
		return Standing{}, false
	}
	sort.Slice(entries, func(i, j int) bool { return queueLess(entries[i], entries[j]) })
	pos := 0
	for i, e := range entries {
		if e == me {
			pos = i
		}
	}
	s := Standing{Holder: me.role == RoleHolder, Position: pos}
	if me.rule != nil {
		s.Watch = me.rule.Path
		s.WatchHeads = entries[0].node.Name == path.Base(s.Watch)
	}
	return s, true
}

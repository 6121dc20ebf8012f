package lockcore

import (
	"fmt"
	"math"
)

// counterWarnDistance is how close to its wrap a parent's child counter must
// be before the analysis warns: about a day of a busy lock's creations.
const counterWarnDistance = 10_000_000

// counterWarnings warns when a parent's sequence counter (its cversion,
// which every child creation and deletion advances) nears or has passed the
// signed 32-bit wrap, after which clients that compare suffixes as text
// (Curator, kazoo) and as numbers (go-zookeeper, ZooKeeper's WriteLock)
// disagree on who is first.
func counterWarnings(t Tree) []string {
	cv := int64(t.Self.Stat.Cversion)
	wrapped := cv < 0
	for i, c := range t.Children {
		if n := t.name(i, c); n.HasSeq && n.Seq < 0 {
			wrapped = true
		}
	}
	switch {
	case wrapped:
		return []string{"the sequence counter has wrapped to negative numbers: clients that compare sequence suffixes as text (Curator, kazoo) and as numbers (go-zookeeper, ZooKeeper's WriteLock) now disagree on the order"}
	case math.MaxInt32-cv < counterWarnDistance:
		return []string{fmt.Sprintf("the sequence counter is at %d, %d creations from wrapping to negative numbers, after which clients disagree on the order", cv, math.MaxInt32-cv)}
	}
	return nil
}

package txnlog

import (
	"strings"

	"github.com/zklocks/zklocks/lockcore"
)

// nodeFilter keeps, when one lock is followed, only the nodes its
// analysis can read: its own and their neighbours (those sharing its
// path's first two elements: a kazoo semaphore's sibling queue, an
// application's breadcrumb), every ephemeral node (an application's
// election nodes and registrations) and the top two levels (Kafka's
// /controller_epoch). The others are not in the tree at all: a million
// plain znodes would outweigh the one lock followed many times over.
func nodeFilter(lock string) func(string, int64) bool {
	if lock == "" {
		return nil
	}
	prefix := lock
	if i := nthSlash(lock, 3); i > 0 {
		prefix = lock[:i]
	}
	return func(p string, owner int64) bool {
		return owner != 0 || strings.Count(p, "/") <= 2 || p == prefix || strings.HasPrefix(p, prefix+"/") ||
			strings.HasPrefix(p, prefix+"-")
	}
}

// nthSlash is the index of s's nth '/', or -1.
func nthSlash(s string, n int) int {
	for i := range len(s) {
		if s[i] == '/' {
			if n--; n == 0 {
				return i
			}
		}
	}
	return -1
}

// kept reports whether the tree holds the node at p (see nodeFilter).
func (t *tree) kept(p string, owner int64) bool {
	return t.keeps == nil || t.keeps(p, owner)
}

// keepOwned is keep for data the tree may hold as it is (a stream
// reader's own copy).
func keepOwned(data []byte) []byte {
	if len(data) > lockcore.DataLimit {
		return keep(data)
	}
	return data
}

// keep is the part of a node's data kept.
func keep(data []byte) []byte {
	if len(data) > lockcore.DataLimit {
		data = data[:lockcore.DataLimit]
	}
	if data == nil {
		return nil
	}
	return append([]byte(nil), data...)
}

package lockcore

import (
	"reflect"
	"testing"
)

// parsedTrees are children's names of many shapes: recipes' contenders,
// semaphores' directories and leases, Aurora's announcements, a wrapped
// counter, names no recipe writes, and mixes of them.
var parsedTrees = [][]string{
	nil,
	{"_c_0b6f8c2e-4f9d-4c1e-9a57-3c1f0f4f2b7a-lock-0000000001"},
	{"_c_0b6f8c2e-4f9d-4c1e-9a57-3c1f0f4f2b7a-lock-0000000001", "_c_1b6f8c2e-4f9d-4c1e-9a57-3c1f0f4f2b7a-lock-0000000002"},
	{"_c_0b6f8c2e-4f9d-4c1e-9a57-3c1f0f4f2b7a-__READ__0000000001", "_c_1b6f8c2e-4f9d-4c1e-9a57-3c1f0f4f2b7a-__WRIT__0000000002"},
	{"leases", "locks"},
	{"leases"},
	{"locks"},
	{"0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210"},
	{"0123456789abcdef0123456789abcdef", "lock-0000000003"},
	{"b1e4c1d2__lock__0000000001", "b1e4c1d2__rlock__0000000002"},
	{"x-72057594037927936-0000000001"},
	{"_c_0b6f8c2e-4f9d-4c1e-9a57-3c1f0f4f2b7a-latch-0000000001", "member_0000000002"},
	{"lock--2147483647", "lock-0000000005"},
	{"plain", "leases", "member_0000000001"},
}

// TestTreeNameReadsAsParseName: the children's names Analyze parsed
// once are what ParseName reads of each, child by child, and a tree
// without them reads each name itself.
func TestTreeNameReadsAsParseName(t *testing.T) {
	for _, names := range parsedTrees {
		var b builder
		kids := make([]Node, len(names))
		for i, n := range names {
			kids[i] = b.node(n, int64(i+1))
		}
		plain := Tree{Path: "/app/locks/l", Children: kids}
		parsed := plain
		parsed.parsed = parseNames(names)
		for i, c := range kids {
			if got, want := parsed.name(i, c), ParseName(c.Name); !reflect.DeepEqual(got, want) {
				t.Errorf("%v: child %d parsed %+v, want %+v", names, i, got, want)
			}
			if got, want := plain.name(i, c), ParseName(c.Name); !reflect.DeepEqual(got, want) {
				t.Errorf("%v: child %d read %+v, want %+v", names, i, got, want)
			}
		}
	}
}

// TestSemaphoreNamesAgreeWithShape: the semaphores' extra hooks' quick
// reading of names says what the full scan of them says.
func TestSemaphoreNamesAgreeWithShape(t *testing.T) {
	for _, names := range parsedTrees {
		for _, self := range []Node{{}, {Data: []byte("3")}} {
			s := detectShape(self, names)
			if got := curatorSemaphoreNames(names); got != (s == shapeCuratorSemaphore) {
				t.Errorf("%v: curatorSemaphoreNames %v, shape %v", names, got, s)
			}
			if !maybeKazooLeases(names) && s == shapeKazooSemaphore {
				t.Errorf("%v: maybeKazooLeases false of a kazoo semaphore", names)
			}
		}
	}
}

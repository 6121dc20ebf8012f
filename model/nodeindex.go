package model

// nodeIndex maps a lock's nodes to a number (a span's index, a time's
// place) while a log's entries are read into spans. A lock's log is
// read again each time one of its nodes' spans is folded, and holds the
// entries of a node or two: a map made for each read cost more than the
// read itself. The pairs are kept in a slice until they are many, then
// in a map.
type nodeIndex[V any] struct {
	few  []nodePair[V]
	many map[string]V
}

type nodePair[V any] struct {
	node string
	v    V
}

// nodeIndexFew is how many nodes a nodeIndex holds in its slice.
const nodeIndexFew = 16

// get is node's value, and whether it has one.
func (x *nodeIndex[V]) get(node string) (V, bool) {
	if x.many != nil {
		v, ok := x.many[node]
		return v, ok
	}
	for i := range x.few {
		if x.few[i].node == node {
			return x.few[i].v, true
		}
	}
	var zero V
	return zero, false
}

// set gives node the value v.
func (x *nodeIndex[V]) set(node string, v V) {
	if x.many != nil {
		x.many[node] = v
		return
	}
	for i := range x.few {
		if x.few[i].node == node {
			x.few[i].v = v
			return
		}
	}
	x.few = append(x.few, nodePair[V]{node, v})
	if len(x.few) > nodeIndexFew {
		x.many = make(map[string]V, 2*len(x.few))
		for _, p := range x.few {
			x.many[p.node] = p.v
		}
		x.few = nil
	}
}

// remove takes node's value away.
func (x *nodeIndex[V]) remove(node string) {
	if x.many != nil {
		delete(x.many, node)
		return
	}
	for i := range x.few {
		if x.few[i].node == node {
			x.few = append(x.few[:i], x.few[i+1:]...)
			return
		}
	}
}

// asMap is the index as a map; nil when it is empty.
func (x *nodeIndex[V]) asMap() map[string]V {
	if x.many != nil {
		if len(x.many) == 0 {
			return nil
		}
		return x.many
	}
	if len(x.few) == 0 {
		return nil
	}
	m := make(map[string]V, len(x.few))
	for _, p := range x.few {
		m[p.node] = p.v
	}
	return m
}

// Package smallmap is a map from strings for the hot paths that make one
// for a few keys at a time (the locks one transaction visits, the nodes
// of one lock's log): its pairs are kept in a slice until they are many,
// then in a map, since a map made for each of them cost more than the
// few keys it held. A leaf: it imports nothing of zklocks.
package smallmap

// few is how many pairs a Map holds in its slice.
const few = 16

// Map maps strings to values of V. The zero value is an empty Map.
type Map[V any] struct {
	few  []pair[V]
	many map[string]V
}

type pair[V any] struct {
	key string
	v   V
}

// Get is key's value, and whether it has one.
func (m *Map[V]) Get(key string) (V, bool) {
	if m.many != nil {
		v, ok := m.many[key]
		return v, ok
	}
	for i := range m.few {
		if m.few[i].key == key {
			return m.few[i].v, true
		}
	}
	var zero V
	return zero, false
}

// Set gives key the value v.
func (m *Map[V]) Set(key string, v V) {
	if m.many != nil {
		m.many[key] = v
		return
	}
	for i := range m.few {
		if m.few[i].key == key {
			m.few[i].v = v
			return
		}
	}
	m.few = append(m.few, pair[V]{key, v})
	if len(m.few) > few {
		m.many = make(map[string]V, 2*len(m.few))
		for _, p := range m.few {
			m.many[p.key] = p.v
		}
		m.few = nil
	}
}

// Delete takes key's value away.
func (m *Map[V]) Delete(key string) {
	if m.many != nil {
		delete(m.many, key)
		return
	}
	for i := range m.few {
		if m.few[i].key == key {
			m.few = append(m.few[:i], m.few[i+1:]...)
			return
		}
	}
}

// AsMap is the Map as a Go map; nil when it is empty.
func (m *Map[V]) AsMap() map[string]V {
	if m.many != nil {
		if len(m.many) == 0 {
			return nil
		}
		return m.many
	}
	if len(m.few) == 0 {
		return nil
	}
	out := make(map[string]V, len(m.few))
	for _, p := range m.few {
		out[p.key] = p.v
	}
	return out
}

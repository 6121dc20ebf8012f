package recording

import (
	"encoding/json"
	"sort"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

// clientDiff is one session's entry in a servers' reading (format 6), as
// a difference from the same session's entry in the part's last reading:
// only the fields that changed, Asked only when it is not the reading's
// own ClientsAsked, Heard as nanoseconds before Asked. A session new to
// the part has every field that is set.
type clientDiff struct {
	// Session is a session reference, as lock lines make them.
	Session json.RawMessage `json:"s"`
	Server  *string         `json:"sv,omitempty"`
	Client  *string         `json:"c,omitempty"`
	Name    *string         `json:"n,omitempty"`
	LastOp  *string         `json:"lo,omitempty"`
	Est     *time.Time      `json:"e,omitempty"`
	Timeout *time.Duration  `json:"to,omitempty"`
	Asked   *time.Time      `json:"a,omitempty"`
	Silent  *time.Duration  `json:"si,omitempty"`
	// HeardBefore is Asked minus Heard, in nanoseconds; HeardZero: none.
	HeardBefore *int64 `json:"h,omitempty"`
	HeardZero   bool   `json:"h0,omitempty"`
}

// diffClients replaces s.Clients with their differences from the part's
// last reading (s.CD, s.CG), and makes this reading the last.
func (e *encoder) diffClients(s *serversJSON) {
	t := e.t
	now := make(map[int64]zkwatch.ClientInfo, len(s.Clients))
	for _, c := range s.Clients {
		now[c.Session] = c
		was, seen := t.clients[c.Session]
		if seen && was == c {
			continue
		}
		d := clientDiff{Session: e.session(c.Session)}
		d.Server = ifChanged(seen, was.Server, &c.Server)
		d.Client = ifChanged(seen, was.Client, &c.Client)
		d.Name = ifChanged(seen, was.Name, &c.Name)
		d.LastOp = ifChanged(seen, was.LastOperation, &c.LastOperation)
		d.Est = ifChanged(seen, was.Established, &c.Established)
		d.Timeout = ifChanged(seen, was.Timeout, &c.Timeout)
		if c.Asked != s.Asked {
			d.Asked = &c.Asked
		}
		d.Silent = ifChanged(seen, was.Silent, &c.Silent)
		if c.Heard.IsZero() {
			d.HeardZero = true
		} else {
			n := c.Asked.UnixNano() - c.Heard.UnixNano()
			d.HeardBefore = &n
		}
		s.CD = append(s.CD, d)
	}
	var gone []int64
	for id := range t.clients {
		if _, ok := now[id]; !ok {
			gone = append(gone, id)
		}
	}
	sort.Slice(gone, func(i, j int) bool { return gone[i] < gone[j] })
	for _, id := range gone {
		s.CG = append(s.CG, e.session(id))
	}
	t.clients, s.Clients = now, nil
}

// ifChanged is now for a field of a client not seen before, or one that
// differs from what it was; nil when it is as it was.
func ifChanged[T comparable](seen bool, was T, now *T) *T {
	if !seen || was != *now {
		return now
	}
	return nil
}

// undiffClients is the reading's clients from its differences (format
// 6), and makes it the part's last.
func (dc *decoder) undiffClients(s *serversJSON, asked time.Time) (map[int64]zkwatch.ClientInfo, error) {
	t := dc.t
	now := make(map[int64]zkwatch.ClientInfo, len(t.clients)+len(s.CD))
	for id, c := range t.clients {
		now[id] = c
	}
	for _, raw := range s.CG {
		id, err := dc.session(raw)
		if err != nil {
			return nil, err
		}
		delete(now, id)
	}
	for _, d := range s.CD {
		id, err := dc.session(d.Session)
		if err != nil {
			return nil, err
		}
		c := now[id]
		c.Session = id
		set(&c.Server, d.Server)
		set(&c.Client, d.Client)
		set(&c.Name, d.Name)
		set(&c.LastOperation, d.LastOp)
		set(&c.Established, d.Est)
		set(&c.Timeout, d.Timeout)
		set(&c.Silent, d.Silent)
		c.Asked = asked
		set(&c.Asked, d.Asked)
		switch {
		case d.HeardZero:
			c.Heard = time.Time{}
		case d.HeardBefore != nil:
			c.Heard = time.Unix(0, c.Asked.UnixNano()-*d.HeardBefore).In(c.Asked.Location())
		}
		now[id] = c
	}
	t.clients = now
	if len(now) == 0 {
		return nil, nil
	}
	return now, nil
}

func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

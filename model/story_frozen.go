package model

import "time"

// StoryFrozen is a stretch a holder's member heard nothing from it, past
// a third of its session timeout: From is when it was last heard from at
// the latest (its member's answer less the silence it told), Seen when an
// answer first told it, Woke when one told it talked again (zero: it did
// not while it held; it was frozen to its hold's end).
type StoryFrozen struct {
	From    time.Time     `json:"from"`
	Seen    time.Time     `json:"seen"`
	Woke    time.Time     `json:"woke,omitzero"`
	Timeout time.Duration `json:"session_timeout_ns,omitempty"`
}

// frozenIn are the stretches hold sp's session was silent, as the log's
// Silent and Woke entries of its node tell, up to ended.
func frozenIn(log []HistoryEntry, sp Span, ended time.Time) []StoryFrozen {
	var out []StoryFrozen
	for _, h := range log {
		if h.Node != sp.Node || h.Session != sp.Session || h.At.Before(sp.From) || h.At.After(ended) {
			continue
		}
		switch {
		case h.Change == Silent:
			from := h.At
			if !h.Silent.At.IsZero() {
				from = h.Silent.At.Add(-h.Silent.For)
			}
			out = append(out, StoryFrozen{From: from, Seen: h.At, Timeout: h.Silent.Timeout})
		case h.Change == Woke && len(out) > 0 && out[len(out)-1].Woke.IsZero():
			out[len(out)-1].Woke = h.At
		}
	}
	return out
}

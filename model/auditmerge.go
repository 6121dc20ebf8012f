package model

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// maxAuditLine bounds one line of an audit log as read back.
const maxAuditLine = 1 << 20

// ReadAuditLog reads every line of an audit log (see Audit); a line that
// is not one is an error naming its number. Blank lines are skipped.
func ReadAuditLog(r io.Reader) ([]lockcore.Action, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), maxAuditLine)
	var out []lockcore.Action
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		a, err := ParseAuditLine(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, a)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	return out, nil
}

// WithActions returns events (a recording, in order) with each of actions
// added as the EventAction a running zklocks would have told, at its
// time, after the events of the same time: an audit log read after the
// fact says who force-released a node the recording saw go, whichever
// zklocks did it. An action the recording holds already is not added
// again. events is not modified.
func WithActions(events []zkwatch.Event, actions []lockcore.Action) []zkwatch.Event {
	have := map[string]bool{}
	for _, ev := range events {
		if ev.Kind == zkwatch.EventAction && ev.Action != nil {
			have[AuditLine(*ev.Action)] = true
		}
	}
	var add []zkwatch.Event
	for _, a := range actions {
		if line := AuditLine(a); !have[line] {
			have[line] = true
			add = append(add, ActionEvent(a))
		}
	}
	if len(add) == 0 {
		return events
	}
	slices.SortStableFunc(add, func(a, b zkwatch.Event) int { return a.At.Compare(b.At) })
	out := make([]zkwatch.Event, 0, len(events)+len(add))
	i := 0
	for _, ev := range events {
		for i < len(add) && add[i].At.Before(ev.At) {
			out = append(out, add[i])
			i++
		}
		out = append(out, ev)
	}
	return append(out, add[i:]...)
}

// ActionMerge adds an audit log's actions to events as they come, as
// WithActions does to a recording held whole: for a source read as a
// stream that holds no action of its own (a ZooKeeper data directory).
type ActionMerge struct {
	add []zkwatch.Event
}

// NewActionMerge merges actions (each once) into the events passed to
// Next.
func NewActionMerge(actions []lockcore.Action) *ActionMerge {
	have := map[string]bool{}
	m := &ActionMerge{}
	for _, a := range actions {
		if line := AuditLine(a); !have[line] {
			have[line] = true
			m.add = append(m.add, ActionEvent(a))
		}
	}
	slices.SortStableFunc(m.add, func(a, b zkwatch.Event) int { return a.At.Compare(b.At) })
	return m
}

// Next passes to apply the actions before ev, then ev.
func (m *ActionMerge) Next(ev zkwatch.Event, apply func(zkwatch.Event)) {
	for len(m.add) > 0 && m.add[0].At.Before(ev.At) {
		apply(m.add[0])
		m.add = m.add[1:]
	}
	apply(ev)
}

// Rest passes to apply the actions after the last event.
func (m *ActionMerge) Rest(apply func(zkwatch.Event)) {
	for _, ev := range m.add {
		apply(ev)
	}
	m.add = nil
}

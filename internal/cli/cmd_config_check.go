package cli

import (
	"strconv"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"gopkg.in/yaml.v3"
)

// viewCheck adds the thresholds zklocks check uses without flags: the
// context's check section, else the defaults.
func (s settings) viewCheck(doc *yaml.Node) {
	t, err := contextThresholds(s)
	cc := s.checkSection()
	from := func(set bool) string {
		if set {
			return "context " + s.context
		}
		return "default"
	}
	dur := func(d time.Duration, set bool) (*yaml.Node, string) {
		note := from(set)
		if d == 0 {
			note += ", off"
		}
		return str(d.String()), note
	}
	num := func(n int, set bool) (*yaml.Node, string) {
		note := from(set)
		if n == 0 {
			note += ", off"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(n)}, note
	}
	kinds := func(ks []lockcore.AnomalyKind) *yaml.Node {
		n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, k := range kindStrings(ks) {
			n.Content = append(n.Content, str(k))
		}
		return n
	}
	m := &yaml.Node{Kind: yaml.MappingNode}
	v, note := dur(t.WarnHeld, cc.WarnHeld != 0)
	put(m, "warn-held", v, note)
	v, note = dur(t.CritHeld, cc.CritHeld != 0)
	put(m, "crit-held", v, note)
	v, note = dur(t.WarnWait, cc.WarnWait != 0)
	put(m, "warn-wait", v, note)
	v, note = dur(t.CritWait, cc.CritWait != 0)
	put(m, "crit-wait", v, note)
	v, note = num(t.WarnWaiters, cc.WarnWaiters != 0)
	put(m, "warn-waiters", v, note)
	v, note = num(t.CritWaiters, cc.CritWaiters != 0)
	put(m, "crit-waiters", v, note)
	put(m, "critical", kinds(t.Critical), from(cc.Critical != nil))
	put(m, "warning", kinds(t.Warning), from(cc.Warning != nil))
	note = "what zklocks check uses without flags"
	if err != nil {
		note = "invalid: " + err.Error()
	}
	put(doc, "check", m, note)
}

package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model/check"
)

// thresholds merges check's flags with the context's check section: a flag
// given wins, then the context, then the flag's default.
func (f *checkFlags) thresholds(cmd *cobra.Command, s settings) (check.Thresholds, error) {
	return f.mergeContext(cmd.Flags().Changed, s)
}

// mergeContext is thresholds with given saying which flags were given.
func (f *checkFlags) mergeContext(given func(flag string) bool, s settings) (check.Thresholds, error) {
	cc := s.checkSection()
	t := check.Thresholds{WarnHeld: f.warnHeld, CritHeld: f.critHeld, WarnWaiters: f.warnWaiters, CritWaiters: f.critWaiters,
		WarnWait: f.warnWait, CritWait: f.critWait}
	warnHeldSet := given("warn-held") || cc.WarnHeld != 0
	if !given("warn-held") && cc.WarnHeld != 0 {
		t.WarnHeld = cc.WarnHeld
	}
	if !given("crit-held") && cc.CritHeld != 0 {
		t.CritHeld = cc.CritHeld
	}
	if !warnHeldSet && t.CritHeld > 0 && t.CritHeld < t.WarnHeld {
		// Only --crit-held was set, below the default --warn-held: the
		// default gives way rather than make the thresholds invalid.
		t.WarnHeld = t.CritHeld
	}
	if !given("warn-wait") && cc.WarnWait != 0 {
		t.WarnWait = cc.WarnWait
	}
	if !given("crit-wait") && cc.CritWait != 0 {
		t.CritWait = cc.CritWait
	}
	if warnWaitSet := given("warn-wait") || cc.WarnWait != 0; !warnWaitSet && t.CritWait > 0 && t.CritWait < t.WarnWait {
		// As for holds: --crit-wait alone, below the default
		// --warn-wait, lowers the default to it.
		t.WarnWait = t.CritWait
	}
	if !given("warn-waiters") && cc.WarnWaiters != 0 {
		t.WarnWaiters = cc.WarnWaiters
	}
	if !given("crit-waiters") && cc.CritWaiters != 0 {
		t.CritWaiters = cc.CritWaiters
	}
	critical, warning := f.critical, f.warning
	if !given("critical") && cc.Critical != nil {
		critical = *cc.Critical
	}
	if !given("warning") && cc.Warning != nil {
		warning = *cc.Warning
	}
	var err error
	if t.Critical, err = parseKinds(critical); err != nil {
		return t, fmt.Errorf("critical kinds: %w", err)
	}
	if t.Warning, err = parseKinds(warning); err != nil {
		return t, fmt.Errorf("warning kinds: %w", err)
	}
	return t, t.Validate()
}

// checkSection is the check section of s's context; empty when there is
// no context or the file does not name it.
func (s settings) checkSection() checkConfig {
	if s.context == "" {
		return checkConfig{}
	}
	c, err := s.file.context(s.context)
	if err != nil {
		return checkConfig{}
	}
	return c.Check
}

// validate checks a context's check section.
func (c checkConfig) validate() error {
	for _, kinds := range []*[]string{c.Critical, c.Warning} {
		if kinds == nil {
			continue
		}
		if _, err := parseKinds(*kinds); err != nil {
			return err
		}
	}
	return check.Thresholds{WarnHeld: c.WarnHeld, CritHeld: c.CritHeld, WarnWaiters: c.WarnWaiters, CritWaiters: c.CritWaiters,
		WarnWait: c.WarnWait, CritWait: c.CritWait}.Validate()
}

// parseKinds parses anomaly kinds, skipping empty names ("" means none).
func parseKinds(names []string) ([]lockcore.AnomalyKind, error) {
	var out []lockcore.AnomalyKind
	for _, n := range names {
		if n = strings.TrimSpace(n); n == "" {
			continue
		}
		k, err := lockcore.ParseAnomalyKind(n)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, nil
}

func kindStrings(kinds []lockcore.AnomalyKind) []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = string(k)
	}
	return out
}

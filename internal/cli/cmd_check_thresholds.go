package cli

import (
	"fmt"
	"strings"
	"time"

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
	warnHeldSet := fromContext(given, "warn-held", cc.WarnHeld, &t.WarnHeld)
	fromContext(given, "crit-held", cc.CritHeld, &t.CritHeld)
	warnWaitSet := fromContext(given, "warn-wait", cc.WarnWait, &t.WarnWait)
	fromContext(given, "crit-wait", cc.CritWait, &t.CritWait)
	fromContext(given, "warn-waiters", cc.WarnWaiters, &t.WarnWaiters)
	fromContext(given, "crit-waiters", cc.CritWaiters, &t.CritWaiters)
	t.WarnHeld = warnGivesWay(warnHeldSet, t.WarnHeld, t.CritHeld)
	t.WarnWait = warnGivesWay(warnWaitSet, t.WarnWait, t.CritWait)
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

// fromContext sets *v to the context's value ctx where the flag was not
// given and the context sets it (zero: not set), and says whether either
// did, so that what is left is the flag's default.
func fromContext[T comparable](given func(flag string) bool, flag string, ctx T, v *T) bool {
	var unset T
	if !given(flag) && ctx != unset {
		*v = ctx
	}
	return given(flag) || ctx != unset
}

// warnGivesWay is the warning threshold beside the critical one crit:
// where only crit was set (set: the warning was given or in the context),
// below the default warning, the default gives way to it rather than make
// the thresholds invalid.
func warnGivesWay(set bool, warn, crit time.Duration) time.Duration {
	if !set && crit > 0 && crit < warn {
		return crit
	}
	return warn
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

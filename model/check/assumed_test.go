package check

import (
	"github.com/zklocks/zklocks/lockcore"
	"strings"
	"testing"
)

// A wait-cycle found in a lock read by the fallback rule rests on guessed
// roles and watches: it is said, as a warning, and pages nobody.
func TestAssumedLockDoesNotPage(t *testing.T) {
	known := stuck()
	if r := Evaluate([]*lockcore.Lock{known}, DefaultThresholds()); r.Status() != Critical {
		t.Fatalf("a known wait-cycle: %s, want CRITICAL", r.Status())
	}
	guessed := stuck()
	guessed.Assumed = []string{"no rule book entry describes 3 contenders"}
	r := Evaluate([]*lockcore.Lock{guessed}, DefaultThresholds())
	if r.Status() != Warning || len(r.Findings) != 1 || !r.Findings[0].Assumed {
		t.Fatalf("an assumed wait-cycle: %s, findings %+v; want one assumed WARNING", r.Status(), r.Findings)
	}
	if !strings.Contains(r.Findings[0].Detail, "rests on an assumption: no rule book entry") {
		t.Fatalf("detail %q does not say what was assumed", r.Findings[0].Detail)
	}
}

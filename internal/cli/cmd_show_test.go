package cli

import (
	"strings"
	"testing"
)

// show with no PATH points to ls, which lists the paths show takes.
func TestShowWithoutPathPointsToLs(t *testing.T) {
	_, stderr, code := run(t, "--config", "", "show")
	if code != exitUsage || !strings.Contains(stderr, "zklocks ls lists every lock") {
		t.Errorf("show with no PATH: exit %d, stderr %q", code, stderr)
	}
}

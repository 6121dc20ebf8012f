package e2e

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/demo"
	"github.com/zklocks/zklocks/internal/testkit/tmuxscreen"
	"github.com/zklocks/zklocks/internal/testkit/zklocksbin"
)

// TestIntegrationDemoTmuxSwitch: N switches the demo between the fair
// lock and the naive one (the herd) and back; the farewell gives each
// run's figures by lock; the demo's actions go to demo-audit.log, not the
// real audit log.
func TestIntegrationDemoTmuxSwitch(t *testing.T) {
	bin, tmp := zklocksbin.Path(t), t.TempDir()
	t.Cleanup(func() { killJVMs(tmp) })
	command := fmt.Sprintf("TMPDIR=%s XDG_STATE_HOME=%s TERM=xterm-256color %s demo --contenders 3 --config '' --log-file %s %s; echo zklocks exited $?",
		tmp, tmp, bin, filepath.Join(tmp, "zk.log"), strings.Join(throwawayArgs(), " "))
	m := tmuxscreen.Start(t, 120, 40, command)
	fair, naive := regexp.QuoteMeta(demo.LockPath(demo.Exclusive)), regexp.QuoteMeta(demo.LockPath(demo.Naive))
	m.WaitScreen(90*time.Second, fair+`(?s).*DEMO \d+\.\d\d wakeups/release.*N herd`)
	m.Keys("N")
	m.WaitScreen(60*time.Second, naive+`(?s).*! herd.*DEMO \d+\.\d\d wakeups/release.*N fair`)
	m.Keys("N")
	m.WaitScreen(60*time.Second, fair+`(?s).*DEMO \d+\.\d\d wakeups/release.*N herd`)
	m.Keys("q")
	m.WaitExit(30 * time.Second)
	m.WaitScreen(time.Second, `zklocks exited 0`)
	m.WaitScreen(time.Second, `(?s)audited to \S*`+regexp.QuoteMeta(filepath.Join(tmp, "zklocks", "demo-audit.log")))
	// The farewell, unwrapped: the last run's figures first.
	farewell := strings.ReplaceAll(m.Capture(), "\n", "")
	if !regexp.MustCompile(`zklocks demo: exclusive lock: \d+\.\d\d wakeups per release.*naive lock: \d+\.\d\d wakeups per release` +
		`.*exclusive lock: .*stopped and removed the throwaway`).MatchString(farewell) {
		t.Fatalf("farewell:\n%s", m.Last())
	}
	assertNothingLeft(t, tmp)
}

package peers

import (
	"fmt"
	"time"

	"github.com/zklocks/zklocks/internal/zkserver"
)

// A step of a peer in its own process (start a client, connect it, get a
// session, end it) is judged by the process's progress, as zkserver judges
// a server's start: it fails when the process exits or uses no CPU time
// for the stall bound, however long it has taken. A starved JVM on a busy
// machine is slow, not failed; a hung or frozen one fails within the bound.

// stallTimeout is a step's bound without CPU progress: the server starts'.
var stallTimeout = zkserver.StallTimeout

// progressJudge tells a wait that has lasted a while whether to go on.
type progressJudge struct {
	// cpu is the process's CPU time so far; ok false when it cannot be
	// read (outside Linux: then a fixed stepTimeout bounds the step).
	cpu   func() (time.Duration, bool)
	stall time.Duration
	start time.Time
	used  time.Duration
	moved time.Time
}

func newProgressJudge(cpu func() (time.Duration, bool), stall time.Duration) *progressJudge {
	now := time.Now()
	used, _ := cpu()
	return &progressJudge{cpu: cpu, stall: stall, start: now, used: used, moved: now}
}

// giveUp says why the wait should end, or nil while the process gets on.
func (j *progressJudge) giveUp() error {
	used, ok := j.cpu()
	if !ok {
		if time.Since(j.start) >= stepTimeout {
			return fmt.Errorf("%w after %v", errTimeout, stepTimeout)
		}
		return nil
	}
	if used > j.used {
		j.used, j.moved = used, time.Now()
		return nil
	}
	if time.Since(j.moved) >= j.stall {
		return fmt.Errorf("%w: the peer's process used no CPU time for %v (%v in all, %v waited)",
			errTimeout, j.stall, used, time.Since(j.start).Round(time.Millisecond))
	}
	return nil
}

// cpuTime is the child's CPU time so far.
func (c *child) cpuTime() (time.Duration, bool) {
	return zkserver.ProcessCPUTime(c.cmd.Process.Pid)
}

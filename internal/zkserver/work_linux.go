package zkserver

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// clockTick is the unit of /proc's CPU times (USER_HZ, 100 on Linux).
const clockTick = 10 * time.Millisecond

// connectionThreads start the names of the JVM threads that accept and
// answer client connections (the kernel keeps 15 bytes of a name): the
// readiness probe's own connections keep them busy, so their time is no
// sign that the server is getting on with its start.
var connectionThreads = []string{"NIOServerCxnFac", "NIOWorkerThread", "nioEventLoopGro", "epollEventLoopG"}

// work returns the CPU time (user and system) that process pid's threads
// have used, but for those that serve client connections; ok is false
// when it cannot be read (the process is gone).
func work(pid int) (used time.Duration, ok bool) {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/stat", pid))
	if err != nil || len(tasks) == 0 {
		return 0, false
	}
	var ticks int64
	for _, task := range tasks {
		b, err := os.ReadFile(task)
		if err != nil {
			continue // the thread ended since the listing
		}
		name, t, ok := threadTicks(string(b))
		if ok && !servesConnections(name) {
			ticks += t
		}
	}
	return time.Duration(ticks) * clockTick, true
}

// threadTicks reads a thread's name and its user and system time, in clock
// ticks, from its /proc stat line: "tid (name) state ppid … utime stime …",
// where the name, in parentheses, may itself hold spaces and parentheses.
func threadTicks(stat string) (name string, ticks int64, ok bool) {
	open, end := strings.IndexByte(stat, '('), strings.LastIndexByte(stat, ')')
	if open < 0 || end < open {
		return "", 0, false
	}
	fields := strings.Fields(stat[end+1:])
	// After the name: state (field 3 of the line) … utime (14), stime (15).
	if len(fields) < 13 {
		return "", 0, false
	}
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		return "", 0, false
	}
	return stat[open+1 : end], utime + stime, true
}

func servesConnections(thread string) bool {
	for _, prefix := range connectionThreads {
		if strings.HasPrefix(thread, prefix) {
			return true
		}
	}
	return false
}

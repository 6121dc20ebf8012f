// Package procstat reads a running process's CPU time and memory from
// Linux's /proc, for the benchmarks that measure zklocks as a process.
package procstat

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// CPU is the user and system time process pid has used so far.
func CPU(t testing.TB, pid int) time.Duration {
	t.Helper()
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	// The fields after the command's name, which is in parentheses and may
	// hold spaces: utime and stime are the 12th and 13th of them.
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	const ticks = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / ticks
}

// PeakRSS is process pid's peak resident memory in bytes (VmHWM).
func PeakRSS(t testing.TB, pid int) uint64 {
	t.Helper()
	return statusBytes(t, pid, "VmHWM:")
}

// RSS is process pid's resident memory now, in bytes (VmRSS).
func RSS(t testing.TB, pid int) uint64 {
	t.Helper()
	return statusBytes(t, pid, "VmRSS:")
}

// statusBytes reads the line of /proc/pid/status that starts with field,
// a size in kB, as bytes.
func statusBytes(t testing.TB, pid int, field string) uint64 {
	t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	t.Fatalf("no %s for pid %d", strings.TrimSuffix(field, ":"), pid)
	return 0
}

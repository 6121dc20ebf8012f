//go:build !linux

package zkserver

import (
	"os"
	"syscall"
	"time"
)

// sysProcAttr has nothing to add outside Linux: there is no parent-death
// signal, so an owner that is killed outright can leave a JVM running.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// killGroup kills p.
func killGroup(p *os.Process) { _ = p.Kill() }

// alive cannot tell outside Linux, and says yes, so that nothing that may
// still be in use is swept.
func alive(int) bool { return true }

// work cannot read a process's CPU time outside Linux: a start is then
// bounded by its context alone.
func work(int) (time.Duration, bool) { return 0, false }

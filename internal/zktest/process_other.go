//go:build !linux

package zktest

import (
	"os"
	"syscall"
)

// sysProcAttr has nothing to add outside Linux: there is no parent-death
// signal, so a test binary that is killed outright can leave a JVM running.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// killGroup kills p.
func killGroup(p *os.Process) { _ = p.Kill() }

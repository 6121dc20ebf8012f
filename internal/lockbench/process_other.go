//go:build !linux

package lockbench

import (
	"os"
	"syscall"
)

// sysProcAttr has nothing to add outside Linux; loop programs still exit at
// EOF on their stdin.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// killGroup kills p.
func killGroup(p *os.Process) { _ = p.Kill() }

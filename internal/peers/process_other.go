//go:build !linux

package peers

import (
	"os"
	"syscall"
)

// sysProcAttr has nothing to add outside Linux; children still exit at EOF
// on their stdin.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// killGroup kills p.
func killGroup(p *os.Process) { _ = p.Kill() }

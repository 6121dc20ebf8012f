package zkserver

import (
	"os"
	"syscall"
)

// ChildProcAttr is the process attributes for a helper process (a server,
// or a test's client program) that must not outlive its owner: its own
// process group and, on Linux, SIGKILL when the starting thread dies.
// Start the process from a locked OS thread for the latter to hold.
func ChildProcAttr() *syscall.SysProcAttr { return sysProcAttr() }

// KillGroup kills p and, where there are process groups, its group.
func KillGroup(p *os.Process) { killGroup(p) }

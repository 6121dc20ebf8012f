package peers

import (
	"os"
	"syscall"
)

// sysProcAttr puts a child in its own process group, and asks the kernel to
// SIGKILL it when the thread that started it dies (see startChild), so a
// crashed test binary leaves no peer behind.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup sends SIGKILL to p's process group.
func killGroup(p *os.Process) {
	if err := syscall.Kill(-p.Pid, syscall.SIGKILL); err != nil {
		_ = p.Kill()
	}
}

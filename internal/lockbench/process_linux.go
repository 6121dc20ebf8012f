package lockbench

import (
	"os"
	"syscall"
)

// sysProcAttr puts a loop program in its own process group, and asks the
// kernel to SIGKILL it when the thread that started it dies (see
// startChild), so a killed benchmark leaves no JVM or Python behind.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup sends SIGKILL to p's process group.
func killGroup(p *os.Process) {
	if err := syscall.Kill(-p.Pid, syscall.SIGKILL); err != nil {
		_ = p.Kill()
	}
}

package zkserver

import (
	"os"
	"syscall"
)

// sysProcAttr puts the JVM in its own process group, so that killing the
// group takes any children with it, and asks the kernel to SIGKILL it when
// its parent thread dies (see launch), so that an owner that crashes or is
// killed leaves no server behind.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup sends SIGKILL to p's process group.
func killGroup(p *os.Process) {
	if err := syscall.Kill(-p.Pid, syscall.SIGKILL); err != nil {
		_ = p.Kill()
	}
}

// alive reports whether a process with this id exists.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}

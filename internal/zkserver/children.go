package zkserver

import (
	"os"
	"os/exec"
	"runtime"
	"syscall"
)

// ChildProcAttr is the process attributes for a helper process (a server,
// or a test's client program) that must not outlive its owner: its own
// process group and, on Linux, SIGKILL when the starting thread dies.
// StartChild starts a process with them from the thread that holds.
func ChildProcAttr() *syscall.SysProcAttr { return sysProcAttr() }

// KillGroup kills p and, where there are process groups, its group.
func KillGroup(p *os.Process) { killGroup(p) }

// StartChild starts cmd as a helper process that must not outlive its
// owner (see ChildProcAttr), and returns once it runs. On Linux the child
// is killed when the thread that forked it ends (Pdeathsig), so it is
// forked from a locked OS thread that lives exactly as long as the child:
// on that thread read (if not nil) reads the child's output until it ends,
// then cmd.Wait's result goes to exited (if not nil); when the goroutine
// returns, still locked, the runtime retires the thread.
func StartChild(cmd *exec.Cmd, read func(), exited func(error)) error {
	cmd.SysProcAttr = sysProcAttr()
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		if read != nil {
			read()
		}
		err := cmd.Wait()
		if exited != nil {
			exited(err)
		}
	}()
	return <-started
}

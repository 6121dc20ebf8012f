package peers

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/zklocks/zklocks/internal/zkserver"
)

// javaArchive is the Java peers' class archive (zkserver.ClassArchive) in
// the temporary directory, named once per test binary.
var javaArchive = sync.OnceValues(func() (zkserver.ClassArchive, error) {
	classpath, err := javaClasspath()
	if err != nil {
		return zkserver.ClassArchive{}, err
	}
	java, err := javaPeers.Tool("java")
	if err != nil {
		return zkserver.ClassArchive{}, err
	}
	return zkserver.NewClassArchive(os.TempDir(), "peers", java, jvmFlags, classpath)
})

// archiveFlags are the flags that map the Java peers' class archive, or
// none when it cannot be made. The first process to find it missing
// makes it first (trainArchive, once per machine; see
// zkserver.ClassArchive); the peers other processes start meanwhile run
// without it.
func archiveFlags(java, classpath string) []string {
	a, err := javaArchive()
	if err != nil {
		return nil
	}
	if makeFlags, publish, ok := a.Claim(); ok {
		trainArchive(java, classpath, makeFlags, publish)
	}
	if a.Ready() {
		return a.UseFlags()
	}
	return nil
}

// trainTimeout bounds the whole of making the archive.
const trainTimeout = 5 * time.Minute

// trainVariants are what the archive's peer acquires and releases, so that
// the classes of the recipes the tests use most are archived.
var trainVariants = []string{"mutex", "read", "write", "semaphore:2", "leaderlatch"}

// trainArchive runs a Curator peer with makeFlags against a server of its
// own: it acquires and releases each of trainVariants, then quits, and its
// JVM writes the archive as it exits; the archive is published when it
// exited of its own accord. Both processes are this one's children like
// any other (killed with it), and have ended when it returns.
func trainArchive(java, classpath string, makeFlags []string, publish func(bool)) {
	exited := false
	defer func() { publish(exited) }()
	ctx, cancel := context.WithTimeout(context.Background(), trainTimeout)
	defer cancel()
	srv, err := zkserver.Start(ctx, zkserver.Config{ClassArchiveDir: os.TempDir()})
	if err != nil {
		return
	}
	defer srv.Stop()
	args := append(append(append([]string(nil), jvmFlags...), makeFlags...), "-cp", classpath, mainClass[Curator], srv.Addr())
	cmd := exec.Command(java, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return
	}
	lines := make(chan string, 64)
	done := make(chan error, 1)
	read := func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default: // nobody is waiting any more
			}
		}
		close(lines)
	}
	if err := zkserver.StartChild(cmd, read, func(err error) { done <- err }); err != nil {
		return
	}
	ended := false
	defer func() {
		if !ended { // killed and reaped before the archive is judged
			zkserver.KillGroup(cmd.Process)
			<-done
		}
	}()
	say := func(cmd string, word string) bool {
		for i, v := range trainVariants {
			what := v
			if cmd == "release" {
				what = ""
			}
			line := strings.TrimSpace(fmt.Sprintf("%s t%d %s", cmd, i, what))
			if cmd == "acquire" {
				line += fmt.Sprintf(" /zklocks-archive/t%d", i)
			}
			if _, err := io.WriteString(stdin, line+"\n"); err != nil {
				return false
			}
		}
		for n := 0; n < len(trainVariants); {
			select {
			case l, ok := <-lines:
				if !ok || strings.HasPrefix(l, "error ") {
					return false
				}
				if strings.HasPrefix(l, word+" ") {
					n++
				}
			case <-ctx.Done():
				return false
			}
		}
		return true
	}
	if !say("acquire", "acquired") || !say("release", "released") {
		return
	}
	_, _ = io.WriteString(stdin, "quit\n")
	stdin.Close()
	select {
	case err := <-done:
		ended, exited = true, err == nil
	case <-ctx.Done():
	}
}

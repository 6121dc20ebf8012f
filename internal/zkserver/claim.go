package zkserver

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// claimStale is how old a claim may be before another process may take it
// over, whether or not its holder still runs.
const claimStale = 10 * time.Minute

// Claim makes this process the one that does something once for every
// process on the machine (compile a program, make a class archive): it
// creates the claim file at path, naming this process, unless another
// process holds it (then ok is false). A claim whose holder has ended, or
// that is older than ten minutes, is taken over. release removes it.
func Claim(path string) (release func(), ok bool) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil && staleClaim(path) {
		_ = os.Remove(path)
		f, err = os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	}
	if err != nil {
		return nil, false
	}
	fmt.Fprintf(f, "%d\n", os.Getpid())
	f.Close()
	return func() { _ = os.Remove(path) }, true
}

// staleClaim reports whether the claim at path belongs to a process that
// has ended, or has been held too long.
func staleClaim(path string) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	if time.Since(fi.ModTime()) > claimStale {
		return true
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	return err == nil && pid > 0 && !alive(pid)
}

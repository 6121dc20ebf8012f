package zktest

import (
	"testing"
	"time"
)

// pollEvery is how often WaitUntil asks again.
const pollEvery = 100 * time.Millisecond

// WaitUntil asks cond every 100 ms until it returns "" (done), and fails
// the test with cond's last answer (what is still wrong) once timeout has
// passed. It is the tests' one way to wait for something that happens
// elsewhere: a server, a client, a terminal.
func WaitUntil(t testing.TB, timeout time.Duration, cond func() (wrong string)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		wrong := cond()
		if wrong == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", timeout, wrong)
		}
		time.Sleep(pollEvery)
	}
}

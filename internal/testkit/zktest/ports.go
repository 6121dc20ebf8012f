package zktest

import "testing"

// FreePort returns a loopback TCP port that was free a moment ago, for
// settings such as secureClientPort that a test configures itself with
// [WithConfig]. Another process can take it before the server binds it.
func FreePort(t testing.TB) int {
	t.Helper()
	return freePorts(t, 1)[0]
}

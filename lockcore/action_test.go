package lockcore

import "testing"

// TestActionResultRoundTrip: what Result and ActionSession write reads
// back through FailedOf and ParseActionSession as the action it was, and
// text that is neither "ok" nor a reason reads as failed, never as done.
func TestActionResultRoundTrip(t *testing.T) {
	for _, failed := range []string{"", "node changed", "failed: twice"} {
		a := Action{Failed: failed}
		if got := FailedOf(a.Result()); got != failed {
			t.Errorf("FailedOf(%q) = %q, want %q", a.Result(), got, failed)
		}
	}
	for in, want := range map[string]string{"failed: ": "failed", "": "failed", "OK": "OK"} {
		if got := FailedOf(in); got != want {
			t.Errorf("FailedOf(%q) = %q, want %q", in, got, want)
		}
	}
	for _, id := range []int64{0, 1, 0x1234abcd, -1} {
		if got := ParseActionSession(ActionSession(id)); got != id {
			t.Errorf("session %d reads back as %d (%q)", id, got, ActionSession(id))
		}
	}
	if ActionSession(0) != "" || ParseActionSession("0xzz") != 0 {
		t.Errorf("no session: %q, garbage reads %d", ActionSession(0), ParseActionSession("0xzz"))
	}
}

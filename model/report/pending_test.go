package report

import (
	"bytes"
	"encoding/json"
	"github.com/zklocks/zklocks/lockcore"
	"strings"
	"testing"
)

func TestPendingContendersInJSONAndText(t *testing.T) {
	l := pendingLockOf("/p", all(0, 2), 0, 1, 2)
	r := Report{Locks: []lockcore.Lock{*l}}
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Locks []struct {
			OldestHoldMs *int64 `json:"oldest_hold_ms"`
			Pending      int    `json:"pending_contenders"`
			Participants []map[string]any
		}
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	lj := out.Locks[0]
	if lj.OldestHoldMs != nil || lj.Pending != 2 {
		t.Errorf("lock: oldest_hold_ms %v pending %d, want null and 2", lj.OldestHoldMs, lj.Pending)
	}
	holder, read := lj.Participants[0], lj.Participants[1]
	for _, f := range []string{"token", "ctime", "age_ms"} {
		if v, ok := holder[f]; !ok || v != nil {
			t.Errorf("pending holder's %s = %v, want null", f, v)
		}
		if read[f] == nil {
			t.Errorf("read waiter's %s is null", f)
		}
	}
	for _, f := range []string{"held_ms", "held_exact", "data", "data_b64"} {
		if v, ok := holder[f]; ok {
			t.Errorf("pending holder has %s = %v, want none", f, v)
		}
	}
	if holder["pending"] != true || holder["held_how"] != "pending" || read["pending"] != nil {
		t.Errorf("pending %v held_how %v; read waiter's pending %v", holder["pending"], holder["held_how"], read["pending"])
	}

	b.Reset()
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	if !strings.Contains(text, "2 of these nodes are listed but not read yet") || strings.Contains(text, "0x0 (0)") ||
		strings.Contains(text, "HELD ≤N") {
		t.Errorf("text:\n%s\nwant the pending note, no token 0, no bounded-hold note", text)
	}
}

func TestListTextSaysWhatIsNotRead(t *testing.T) {
	s := synced()
	s.Apply(lockEvent(pendingLockOf("/listed", all(0, 1), 0, 1)))
	var b bytes.Buffer
	if err := WriteListText(&b, s); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "…") || !strings.Contains(out, "2 contenders are listed but not read yet") {
		t.Errorf("ls text:\n%s\nwant the OLDEST cell marked and the mark explained", out)
	}
}

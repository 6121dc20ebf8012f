package report

import (
	"bytes"
	"encoding/json"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"strings"
	"testing"
	"time"
)

func TestHoldInJSONAndText(t *testing.T) {
	var buf bytes.Buffer
	if err := (Report{Locks: []lockcore.Lock{*queuedLong(false)}}).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Locks []struct {
			OldestHoldMs  int64 `json:"oldest_hold_ms"`
			OldestExact   bool  `json:"oldest_hold_exact"`
			Participants  []map[string]any
			Anomalies     []any `json:"anomalies"`
			MaybeLongHeld []struct {
				Kind, Detail string
			} `json:"maybe_long_held"`
		} `json:"locks"`
	}
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	l := out.Locks[0]
	p := l.Participants[0]
	if p["held_ms"] != float64(3600000) || p["held_exact"] != false || p["held_at_least_ms"] != float64(0) ||
		p["held_how"] != "bounded" || p["age_ms"] != float64(3600000) {
		t.Fatalf("participant: %v", p)
	}
	if l.OldestHoldMs != 3600000 || l.OldestExact || len(l.Anomalies) != 0 || len(l.MaybeLongHeld) != 1 ||
		l.MaybeLongHeld[0].Kind != "long-held" {
		t.Fatalf("lock: %s", buf.String())
	}

	buf.Reset()
	if err := (Report{Locks: []lockcore.Lock{*queuedLong(true)}}).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"held_ms": 0,`) || !strings.Contains(buf.String(), `"held_exact": true`) ||
		strings.Contains(buf.String(), "held_at_least_ms") || strings.Contains(buf.String(), "long-held") {
		t.Fatalf("a hold seen granted: %s", buf.String())
	}

	buf.Reset()
	if err := (Report{Locks: []lockcore.Lock{*queuedLong(false)}}).WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"AGE    HELD", "1h00m  ≤1h00m", "HELD ≤N: held for at most N", "? possibly long-held"} {
		if !strings.Contains(buf.String(), want) {
			t.Fatalf("text has no %q:\n%s", want, buf.String())
		}
	}
}

// The row's figure (HoldShort) and the detail's words (HoldText) say the
// same hold: one figure where the bounds read the same, ≤ where only the
// upper bound is known.
func TestHoldTextSaysOneFigureOnce(t *testing.T) {
	for _, tt := range []struct {
		name  string
		h     lockcore.Hold
		want  string
		short string
	}{
		{"bounds that read the same", lockcore.Hold{Min: 15*time.Second + 200*time.Millisecond, Max: 15*time.Second + 700*time.Millisecond}, "held for 15s", "15s"},
		{"bounds apart", lockcore.Hold{Min: 10 * time.Second, Max: 15 * time.Second}, "held for 10s to 15s (queued 15s ago)", "≤15s"},
		{"at most", lockcore.Hold{Max: 15 * time.Second}, "held for at most 15s (queued 15s ago)", "≤15s"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := model.HoldText(tt.h, "15s"); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
			if got := model.HoldShort(tt.h); got != tt.short {
				t.Fatalf("short: got %q, want %q", got, tt.short)
			}
		})
	}
}

package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/model/check"
)

// checkWaitJSON is the part of check --json this file reads.
type checkWaitJSON struct {
	Status       string   `json:"status"`
	Code         int      `json:"code"`
	Summary      string   `json:"summary"`
	Complete     bool     `json:"complete"`
	NotJudged    []string `json:"not_judged"`
	OldestWaitMs int64    `json:"oldest_wait_ms"`
	Findings     []struct {
		Status        string   `json:"status"`
		Lock          string   `json:"lock"`
		Kind          string   `json:"kind"`
		Nodes         []string `json:"nodes"`
		Session       *string  `json:"session"`
		HolderSession *string  `json:"holder_session"`
		HolderClient  *string  `json:"holder_client"`
		OldestWaitMs  *int64   `json:"oldest_wait_ms"`
	} `json:"findings"`
	Undated []struct {
		Lock         string `json:"lock"`
		Node         string `json:"node"`
		HeldAtMostMs int64  `json:"held_at_most_ms"`
	} `json:"undated_holds"`
}

// The 3 a.m. queue with real Curator clients: the holder got the lock when
// its predecessor left, so one read cannot date its grant, and a waiter
// queues behind it. Hold thresholds alone say OK (and, now, that the hold
// is undatable); the wait thresholds judge the waiter's exact wait.
func TestIntegrationCheckStuckQueueByWait(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	server := zks.Addr()
	curator := peers.Start(t, peers.Curator, server)
	const lock = "/locks/stuck-queue"
	curator.Acquire(t, "first", "mutex", lock)
	curator.WaitHeld(t, "first", 30*time.Second)
	holder := curator.Acquire(t, "holder", "mutex", lock)
	waiter := curator.Acquire(t, "waiter", "mutex", lock)
	curator.Release(t, "first")
	curator.WaitHeld(t, "holder", 30*time.Second)

	// Hold thresholds only: nothing can be proven of the holder's hold.
	held := []string{"check", "--server", server, "--warn-held", "1s", "--crit-held", "2s"}
	var got checkWaitJSON
	zktest.WaitUntil(t, 30*time.Second, func() string {
		out, errOut, code := run(t, append(held, "--json")...)
		got = checkWaitJSON{}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			return fmt.Sprintf("invalid JSON (%v): %s %s", err, out, errOut)
		}
		if code != int(check.OK) || len(got.Undated) != 1 || got.Undated[0].HeldAtMostMs < 2000 {
			return fmt.Sprintf("exit %d: %+v", code, got)
		}
		return ""
	})
	if u := got.Undated[0]; u.Lock != lock || u.Node != rel(holder.Node) {
		t.Errorf("undated hold %+v, want the holder %s", u, holder.Node)
	}
	if !strings.Contains(got.Summary, "cannot be dated from one read") {
		t.Errorf("summary does not say the hold cannot be dated: %s", got.Summary)
	}

	// The wait is exact: past --warn-wait a WARNING, past --crit-wait
	// CRITICAL, naming the waiter.
	waits := []string{"check", "--server", server, "--warn-wait", "1s", "--crit-wait", "3s"}
	zktest.WaitUntil(t, 30*time.Second, func() string {
		out, errOut, code := run(t, append(waits, "--json")...)
		got = checkWaitJSON{}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			return fmt.Sprintf("invalid JSON (%v): %s %s", err, out, errOut)
		}
		if code != int(check.Critical) {
			return fmt.Sprintf("exit %d: %+v", code, got)
		}
		return ""
	})
	if len(got.Findings) != 1 {
		t.Fatalf("findings %+v", got.Findings)
	}
	f := got.Findings[0]
	if f.Kind != "wait" || f.Lock != lock || len(f.Nodes) != 1 || f.Nodes[0] != rel(waiter.Node) || f.Session == nil ||
		*f.Session != fmt.Sprintf("0x%x", waiter.Session) || f.OldestWaitMs == nil || *f.OldestWaitMs < 3000 || got.OldestWaitMs < 3000 {
		t.Errorf("wait finding %+v (oldest wait %d ms), want the waiter %s past 3 s", f, got.OldestWaitMs, waiter.Node)
	}
	// The page names the culprit: the holder's session and its client.
	holderHex := fmt.Sprintf("0x%x", holder.Session)
	if f.HolderSession == nil || *f.HolderSession != holderHex || f.HolderClient == nil || !strings.HasPrefix(*f.HolderClient, "127.0.0.1:") {
		t.Errorf("wait finding names holder session %v client %v, want %s and its client's address", f.HolderSession, f.HolderClient, holderHex)
	}
	out, _, code := run(t, "check", "--server", server, "--warn-wait", "1s", "--crit-wait", "1h", lock)
	if code != int(check.Warning) || !strings.HasPrefix(out, "WARNING: 1 of 1 lock needs a look: "+lock+" wait") ||
		!strings.Contains(out, "\nWARNING "+lock+" wait nodes="+model.ShortNode(rel(waiter.Node))) || !strings.Contains(out, " oldest_wait=") ||
		!strings.Contains(out, "'"+lock+":oldest_wait'=") || !strings.Contains(out, " holder_session="+holderHex+" holder_client=127.0.0.1:") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// Where cons is refused, disconnected-holder cannot be judged: check says
// so instead of calling its picture complete.
func TestIntegrationCheckSaysDisconnectedHolderNotJudged(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t, zktest.WithFourLetterWords("srvr,dump,wchc"))
	server := zks.Addr()
	gozk := peers.Start(t, peers.GoZk, server)
	gozk.Acquire(t, "h", "lock", "/locks/no-cons")
	gozk.WaitHeld(t, "h", 30*time.Second)

	out, errOut, code := run(t, "check", "--server", server, "--json")
	var got checkWaitJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("invalid JSON (%v): %s %s", err, out, errOut)
	}
	if code != int(check.OK) || got.Complete || len(got.NotJudged) != 2 ||
		!strings.Contains(got.NotJudged[0], "disconnected-holder not judged for 1 holder (cons refused, and no AdminServer answered, by "+server) ||
		!strings.Contains(got.NotJudged[1], "silent-holder not judged for 1 holder") {
		t.Errorf("exit %d: %+v", code, got)
	}
	out, _, code = run(t, "check", "--server", server)
	if code != int(check.OK) || !strings.Contains(out, "; disconnected-holder not judged for 1 holder") ||
		!strings.Contains(out, "complete=0;;;0;1") || !strings.Contains(out, "\nNOTE disconnected-holder not judged") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	_, _, code = run(t, "check", "--server", server, "--require-complete")
	if code != int(check.Unknown) {
		t.Errorf("--require-complete: exit %d, want UNKNOWN", code)
	}
}

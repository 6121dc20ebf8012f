package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/recording/txnlog"
	"github.com/zklocks/zklocks/zkwatch"
)

// dataDirFixture is a copy of a real ZooKeeper 3.8's data directory after
// an incident (recording/txnlog's testdata), version-2/ and all.
func dataDirFixture(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	if out, err := exec.Command("cp", "-a", "../../recording/txnlog/testdata/zk38/.", dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
	return dst
}

func TestPostmortemOfADataDirectory(t *testing.T) {
	dir := dataDirFixture(t)
	for _, c := range []struct{ lock, end, words string }{
		{"/locks/killed", "expired", "session timeout 10s; its session's last transaction at"},
		{"/locks/forced", "forced", "deleted by session 0x"},
		{"/locks/closed", "session-closed", "closed by its client"},
		{"/locks/released", "released", "released at"},
	} {
		out, errOut, code := run(t, "postmortem", c.lock, "--recording", dir)
		if code != exitOK || !strings.Contains(out, c.words) {
			t.Errorf("postmortem %s exited %d: %s\n%s", c.lock, code, errOut, out)
		}
		out, _, _ = run(t, "postmortem", c.lock, "--recording", filepath.Join(dir, "version-2"), "--json")
		var st struct {
			Holds   []struct{ End string } `json:"holds"`
			Partial []string               `json:"partial"`
		}
		if err := json.Unmarshal([]byte(out), &st); err != nil || len(st.Holds) == 0 || st.Holds[0].End != c.end || len(st.Partial) > 0 {
			t.Errorf("postmortem %s --json: %v\n%s", c.lock, err, out)
		}
	}
}

// cutShortFixture is dataDirFixture with its last log cut short in its
// last record, as a copy taken while it was written.
func cutShortFixture(t *testing.T) string {
	t.Helper()
	dir := dataDirFixture(t)
	log := filepath.Join(dir, "version-2", "log.20")
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(log, b[:len(b)-7], 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestPostmortemOfADataDirectoryCutShortIsPartial(t *testing.T) {
	dir := cutShortFixture(t)
	out, errOut, code := run(t, "postmortem", "/locks/killed", "--recording", dir, "--json")
	if code != exitOK || !strings.Contains(out, `"partial"`) || !strings.Contains(out, "middle of a record") {
		t.Errorf("exit %d, stderr %s\n%s", code, errOut, out)
	}
	out, _, _ = run(t, "postmortem", "/locks/killed", "--recording", dir)
	if !strings.Contains(out, "PARTIAL: ") {
		t.Errorf("the text does not say it is partial:\n%s", out)
	}
	// show --at says it too.
	out, _, _ = run(t, "show", "--recording", dir, "--at", "end", "--json")
	if !strings.Contains(out, `"partial"`) || !strings.Contains(out, "middle of a record") {
		t.Errorf("show --at --json does not say it is partial:\n%s", out)
	}
	out, _, _ = run(t, "show", "--recording", dir, "--at", "end")
	if !strings.Contains(out, "PARTIAL: ") {
		t.Errorf("show --at's text does not say it is partial:\n%s", out)
	}
}

func TestShowAtOfADataDirectory(t *testing.T) {
	dir := dataDirFixture(t)
	out, errOut, code := run(t, "show", "--recording", dir, "--at", "end", "/locks/sem", "--json")
	if code != exitOK || !strings.Contains(out, `"/locks/sem"`) {
		t.Errorf("show --at end exited %d: %s\n%s", code, errOut, out)
	}
}

func TestDataDirectoryBadInputIsSaid(t *testing.T) {
	keeper := t.TempDir()
	for _, n := range []string{"changelog_1_100000.bin", "snapshot_100000.bin.zstd"} {
		if err := os.WriteFile(filepath.Join(keeper, n), []byte("keeper"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, errOut, code := run(t, "postmortem", "/locks/x", "--recording", keeper)
	if code != exitFailed || !strings.Contains(errOut, "ClickHouse Keeper") || strings.Contains(errOut, "panic") {
		t.Errorf("a Keeper directory: exit %d, %s", code, errOut)
	}
	dir := dataDirFixture(t)
	_, errOut, code = run(t, "postmortem", "/locks/killed", "--recording", dir, "--to", "2001-01-01T00:00:00Z")
	if code != exitFailed || !strings.Contains(errOut, "no log covers the range") {
		t.Errorf("a range before the logs: exit %d, %s", code, errOut)
	}
}

func TestPostmortemOfADataDirectoryTakesTheAuditLine(t *testing.T) {
	dir := dataDirFixture(t)
	res, err := txnlog.Load(context.Background(), []string{dir}, txnlog.Options{Lock: "/locks/forced"})
	if err != nil {
		t.Fatal(err)
	}
	var end zkwatch.NodeEnd
	for _, ev := range res.Recording.Events {
		for _, e := range ev.Ends {
			if e.How == zkwatch.EndDeletedByOther {
				end = e
			}
		}
	}
	if end.Path == "" {
		t.Fatal("the fixture's forced end is not in the log")
	}
	// The operation that deleted it, as the operator's zklocks audited it.
	ours := lockcore.Action{At: end.At.Add(-3 * time.Millisecond), User: "sre", Host: "ops-1", Via: model.ViaCLI,
		Kind: lockcore.ActionForceRelease, Node: end.Path, Token: end.Czxid, Session: end.By, Owner: end.Session}
	other := ours
	other.Node, other.User, other.Token = "/locks/other/lock-0000000001", "someone", 99
	audits := t.TempDir()
	a, b := filepath.Join(audits, "a.log"), filepath.Join(audits, "b.log")
	if err := os.WriteFile(a, []byte(model.AuditLine(other)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte(model.AuditLine(ours)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "postmortem", "/locks/forced", "--recording", dir, "--audit-log", a, "--audit-log", b)
	if code != exitOK || !strings.Contains(out, "forced at") || !strings.Contains(out, `audit: {"time"`) ||
		!strings.Contains(out, `"user":"sre"`) || strings.Contains(out, "someone") ||
		!strings.Contains(out, "deleted by session "+lockcore.SessionHex(end.By)) {
		t.Errorf("exit %d, %s\n%s", code, errOut, out)
	}
	// Without the audit log, the same end is forced, by the session named.
	out, _, _ = run(t, "postmortem", "/locks/forced", "--recording", dir)
	if !strings.Contains(out, "forced at") || strings.Contains(out, "audit:") {
		t.Errorf("without the audit log:\n%s", out)
	}
}

// A hold another session deleted is never shown as released: show --at
// on a data directory says whose delete ended it, as postmortem does.
func TestShowAtOfADataDirectoryTellsEachEnding(t *testing.T) {
	dir := dataDirFixture(t)
	for _, c := range []struct{ lock, at, text, endedBy string }{
		{"/locks/forced", "2026-11-28T22:11:42.400Z", "force-released by session 0x100000c59630000 (ZooKeeper's transaction log says session 0x100000c59630000 deleted it, not its own: its client was not told", "other-session"},
		{"/locks/released", "2026-11-28T22:11:42.400Z", "released (ZooKeeper's transaction log says its own session deleted it)", "owner"},
	} {
		out, errOut, code := run(t, "show", c.lock, "--recording", dir, "--from", "2026-11-28T22:11:40.2Z", "--at", c.at)
		if code != exitOK || !strings.Contains(out, c.text) {
			t.Errorf("show %s --at %s exited %d: %s\n%s", c.lock, c.at, code, errOut, out)
		}
		out, _, _ = run(t, "show", c.lock, "--recording", dir, "--from", "2026-11-28T22:11:40.2Z", "--at", c.at, "--json")
		if !strings.Contains(out, `"ended_by": "`+c.endedBy+`"`) || strings.Contains(out, `"text": "released"`) && c.endedBy != "owner" {
			t.Errorf("show %s --at %s --json:\n%s", c.lock, c.at, out)
		}
	}
}

// Every warning a read says is kept with what it read, for the replay to
// say on its screen, which hides what was printed before it opened.
func TestSourceKeepsItsWarnings(t *testing.T) {
	dir := cutShortFixture(t)
	var stderr strings.Builder
	src, err := loadSourceOf(context.Background(), &stderr, []string{dir}, recording.Range{}, sourceWant{})
	if err != nil {
		t.Fatal(err)
	}
	if len(src.warnings) != 1 || !strings.Contains(src.warnings[0], "middle of a record") || !strings.Contains(stderr.String(), src.warnings[0]) {
		t.Errorf("warnings kept %q, printed %q", src.warnings, stderr.String())
	}
}

// A lock its contenders had all left by the moment asked reads as an
// empty lock, as a watcher asked to read it would read it, alone or among
// others; a path that was not there says how to read back to it.
func TestShowAtOfADataDirectoryReadsALockLeftEmpty(t *testing.T) {
	dir := dataDirFixture(t)
	const at = "2026-11-28T22:11:42.386Z"
	for _, paths := range [][]string{{"/locks/released"}, {"/locks/released", "/locks/forced"}} {
		out, errOut, code := run(t, append(append([]string{"show"}, paths...), "--recording", dir, "--at", at)...)
		if code != exitOK || !strings.Contains(out, "/locks/released  empty  0 holding, 0 waiting") {
			t.Errorf("show %v exited %d: %s\n%s", paths, code, errOut, out)
		}
	}
	_, errOut, code := run(t, "show", "/locks/nothing", "--recording", dir, "--at", at)
	if code != exitFailed || !strings.Contains(errOut, "not a lock the recording knew at that moment") ||
		!strings.Contains(errOut, "--from an earlier time tells what came before") {
		t.Errorf("exit %d:\n%s", code, errOut)
	}
	out, errOut, code := run(t, "show", "/locks/released", "--recording", dir, "--at", at, "--from", "2026-11-28T22:11:42.2Z")
	if code != exitOK || !strings.Contains(out, "released (ZooKeeper's transaction log says its own session deleted it)") {
		t.Errorf("with --from, exit %d: %s\n%s", code, errOut, out)
	}
}

// show --at end (or start, +90s, -1m) on a data directory reads what led
// up to that moment, found from the logs' headers, and begins its picture
// there: not every transaction of the history kept in memory to count
// back from (15 GB at the benchmark's gigabyte of logs).
func TestShowAtARelativeMomentOfADataDirectoryReadsUpToIt(t *testing.T) {
	dir := dataDirFixture(t)
	for at, span := range map[string]string{"end": "22:11:51 – 22:11:51", "+2s": "22:11:42 – 22:11:42"} {
		_, errOut, code := run(t, "show", "--recording", dir, "--at", at)
		if code != exitOK || !strings.Contains(errOut, "of its ") || !strings.Contains(errOut, span+")") {
			t.Errorf("--at %s, exit %d: %s", at, code, errOut)
		}
	}
}

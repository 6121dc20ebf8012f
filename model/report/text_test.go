package report

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	file := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test ./model -run %s -update)", err, t.Name())
	}
	if got != string(want) {
		t.Fatalf("%s differs:\n--- got\n%s--- want\n%s", file, got, want)
	}
}

// orphanLock is a Curator mutex whose session 0x2 left an orphan at the
// head of the queue and waits behind it, with a persistent node at the tail:
// a lock with long anomaly lines.
func orphanLock() lockcore.Lock {
	tr := lockcore.Tree{Path: "/locks/orders", ReadAt: t0}
	for i, c := range []struct {
		uuid    string
		session int64
	}{
		{"f2f6b74b-d857-43b1-a984-39c874c42dda", 2},
		{"0e3a1c55-2b7d-4c1e-9d0f-6a5b4c3d2e1f", 3},
		{"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", 2},
		{"11111111-2222-4333-8444-555555555555", 0},
	} {
		tr.Children = append(tr.Children, lockcore.Node{
			Name: "_c_" + c.uuid + "-lock-000000000" + string(rune('0'+i)),
			Stat: zk.Stat{Czxid: int64(0x10 + 2*i), EphemeralOwner: c.session,
				Ctime: t0.Add(-time.Duration(40-i) * time.Second).UnixMilli()}})
	}
	return lockcore.Analyze(tr, nil, lockcore.Options{LongHeld: 30 * time.Second})
}

func TestWriteTextKeepsAnomaliesOutOfTheTable(t *testing.T) {
	r := Report{Server: "127.0.0.1:2181", WatchesSource: lockcore.WatchesFromRecipe,
		Locks: []lockcore.Lock{orphanLock(), *lockOf("/locks/b", 4, 5)}}
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, "show_anomalies.golden", b.String())
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(line, "0 ") && !strings.HasPrefix(line, "0    holder  ") {
			t.Fatalf("the table's first columns are wider than their contents: %q", line)
		}
	}
}

type failingWriter struct{ n int }

func (f *failingWriter) Write(p []byte) (int, error) {
	if f.n == 0 {
		return 0, os.ErrClosed
	}
	f.n--
	return len(p), nil
}

func TestWriteTextReportsWriteErrors(t *testing.T) {
	r := Report{Locks: []lockcore.Lock{orphanLock()}}
	for n := 0; n < 4; n++ {
		if err := r.WriteText(&failingWriter{n: n}); err == nil {
			t.Fatalf("a writer failing after %d writes: no error", n)
		}
	}
}

// A member that refuses cons and wchc and has no AdminServer is said once,
// in the fix that points to doctor, not in four paragraphs.
func TestWriteTextSaysARefusalOnce(t *testing.T) {
	const addr = "127.0.0.1:21812"
	admin := errors.New("words: no AdminServer at http://127.0.0.1:8080/commands/configuration: connection refused")
	servers := []zkwatch.ServerInfo{{Addr: addr, Refused: []string{"cons", "wchc", "dump"}, AdminErr: admin,
		Via: map[string]words.Via{"srvr": words.ViaWord}}}
	werr := fmt.Errorf("%s: %w: wchc (%s); %w", addr, words.ErrFourLetterRefused, addr, admin)
	r := Report{Server: addr, WatchesSource: lockcore.WatchesFromRecipe, WatchesNote: werr.Error(), WatchesErr: werr,
		LinksNote: "cons refused, and no AdminServer answered, by " + addr, Servers: servers, Fix: zkwatch.NoWayFix(servers)}
	var out bytes.Buffer
	if err := r.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if n := strings.Count(text, "four-letter word"); n != 1 || !strings.Contains(text, "zklocks doctor says more") ||
		!strings.Contains(text, "watch targets follow each recipe's rule: "+addr+": four-letter words refused") {
		t.Errorf("the refusal said %d times, or without its fix:\n%s", n, text)
	}
	if strings.Contains(text, "\n\n\n") {
		t.Errorf("two blank lines in a row:\n%q", text)
	}
}

package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/model/check"
)

// acmeRecipe is the in-house read/write lock of acmeLock, as its team would
// describe it in the config file.
const acmeRecipe = `
recipes:
  - name: acme-rw
    about: ACME's ticket lock (libacme)
    paths: ["%s/acme/*"]
    children: "{owner}~{mode}~{seq}"
    modes: {rd: read, wr: write}
    grant: read-write
    read-waits-on: nearest-write
    identity: json:host
    persistent: true
`

// acmeContender is one client of ACME's in-house lock, as libacme writes
// it: an ephemeral sequential node <host>~<rd|wr>~<seq> holding
// {"host": …}, and an exists watch on the node it waits for: a writer on
// its predecessor, a reader on the nearest writer ahead of it.
type acmeContender struct {
	host, mode string
}

func buildAcmeLock(t *testing.T, connect func() *zk.Conn, lock string, cs []acmeContender) []string {
	t.Helper()
	var nodes []string
	lastWrite := ""
	for _, c := range cs {
		conn := connect()
		data := fmt.Sprintf(`{"host":%q,"pid":4242}`, c.host)
		node, err := conn.Create(lock+"/"+c.host+"~"+c.mode+"~", []byte(data), zk.FlagEphemeral|zk.FlagSequence, zk.WorldACL(zk.PermAll))
		if err != nil {
			t.Fatal(err)
		}
		var target string
		switch {
		case c.mode == "wr" && len(nodes) > 0:
			target = nodes[len(nodes)-1]
		case c.mode == "rd":
			target = lastWrite
		}
		if target != "" {
			if ok, _, _, err := conn.ExistsW(target); err != nil || !ok {
				t.Fatalf("watch %s: %v %v", target, ok, err)
			}
		}
		if c.mode == "wr" {
			lastWrite = node
		}
		nodes = append(nodes, node)
	}
	return nodes
}

type acmeShown struct {
	Locks []struct {
		Path         string   `json:"path"`
		Recipe       string   `json:"recipe"`
		Entry        string   `json:"entry"`
		Assumed      []string `json:"assumed"`
		Holders      int      `json:"holders"`
		Waiters      int      `json:"waiters"`
		Participants []struct {
			Node     string  `json:"node"`
			Mode     string  `json:"mode"`
			Role     string  `json:"role"`
			Watches  *string `json:"watches"`
			Identity string  `json:"identity"`
		} `json:"participants"`
		Anomalies []struct {
			Kind string `json:"kind"`
		} `json:"anomalies"`
	} `json:"locks"`
}

// A made-up in-house lock (two readers holding together, a writer and a
// reader waiting), built by go-zookeeper as its client would: without an
// entry zklocks reads it wrong, and says it assumed; with its entry in the
// config file, it reads it right, discovers its persistent batch lock, and
// check judges it by the entry.
func TestIntegrationInHouseRecipe(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	admin := zks.Connect(t)
	for _, p := range []string{root + "/acme", root + "/acme/orders", root + "/acme/batch"} {
		if _, err := admin.Create(p, nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
			t.Fatal(err)
		}
	}
	lock := root + "/acme/orders"
	nodes := buildAcmeLock(t, func() *zk.Conn { return zks.Connect(t) }, lock, []acmeContender{
		{"web1", "rd"}, {"web2", "rd"}, {"web3", "wr"}, {"web4", "rd"}})
	// A batch job's lock, taken persistently by a cron tool.
	batch, err := admin.Create(root+"/acme/batch/cron~wr~", []byte(`{"host":"cron1"}`), zk.FlagSequence, zk.WorldACL(zk.PermAll))
	if err != nil {
		t.Fatal(err)
	}
	base := func(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }
	none := filepath.Join(t.TempDir(), "none.yaml") // a config file with no recipes
	if err := os.WriteFile(none, nil, 0o600); err != nil {
		t.Fatal(err)
	}

	showAcme := func(args ...string) acmeShown {
		t.Helper()
		out, errOut, code := run(t, append([]string{"show", "--json", "--server", zks.Addr()}, append(args, lock)...)...)
		if code != exitOK {
			t.Fatalf("show exited %d: %s", code, errOut)
		}
		var s acmeShown
		if err := json.Unmarshal([]byte(out), &s); err != nil || len(s.Locks) != 1 {
			t.Fatalf("show --json: %v\n%s", err, out)
		}
		return s
	}

	// Without an entry: the fallback rule, a guess, and said to be one.
	l := showAcme("--config", none).Locks[0]
	if l.Recipe != "sequential" || l.Entry != "" || len(l.Assumed) == 0 || l.Holders != 1 || l.Waiters != 3 {
		t.Fatalf("without an entry: recipe %s, entry %q, assumed %q, %d holding, %d waiting", l.Recipe, l.Entry, l.Assumed, l.Holders, l.Waiters)
	}
	if p := l.Participants[1]; p.Role != "waiter" || p.Mode != "exclusive" {
		t.Fatalf("without an entry, web2 (a co-holder) is shown as %s %s: the wrong reading this test starts from", p.Role, p.Mode)
	}

	config := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(config, []byte(fmt.Sprintf(acmeRecipe, root)), 0o600); err != nil {
		t.Fatal(err)
	}
	l = showAcme("--config", config).Locks[0]
	if l.Recipe != "acme-rw" || l.Entry != "acme-rw" || len(l.Assumed) != 0 || l.Holders != 2 || l.Waiters != 2 || len(l.Anomalies) != 0 {
		t.Fatalf("with the entry: recipe %s, entry %q, assumed %q, %d holding, %d waiting, anomalies %v",
			l.Recipe, l.Entry, l.Assumed, l.Holders, l.Waiters, l.Anomalies)
	}
	want := []struct{ mode, role, watches, host string }{
		{"read", "holder", "", "web1"}, {"read", "holder", "", "web2"},
		{"write", "waiter", base(nodes[1]), "web3"}, {"read", "waiter", base(nodes[2]), "web4"}}
	for i, w := range want {
		p := l.Participants[i]
		watches := ""
		if p.Watches != nil {
			watches = *p.Watches
		}
		if p.Node != base(nodes[i]) || p.Mode != w.mode || p.Role != w.role || watches != w.watches || p.Identity != `"`+w.host+`"` {
			t.Errorf("#%d: %s %s %s watching %q, identity %s; want %s %s %s watching %q, identity %q",
				i, p.Node, p.Mode, p.Role, watches, p.Identity, base(nodes[i]), w.mode, w.role, w.watches, w.host)
		}
	}

	// Discovery: ls finds the persistent batch lock only by the entry.
	ls := func(args ...string) string {
		t.Helper()
		out, errOut, code := run(t, append([]string{"ls", "--json", "--server", zks.Addr(), "--root", root}, args...)...)
		if code != exitOK {
			t.Fatalf("ls exited %d: %s", code, errOut)
		}
		return out
	}
	batchLock := `"` + root + `/acme/batch"`
	if out := ls("--config", none); strings.Contains(out, batchLock) {
		t.Fatalf("without the entry, ls lists the persistent %s:\n%s", batch, out)
	}
	if out := ls("--config", config); !strings.Contains(out, batchLock) || !strings.Contains(out, `"acme-rw"`) {
		t.Fatalf("with the entry, ls does not list %s as acme-rw:\n%s", root+"/acme/batch", out)
	}

	// check: the guessed reading's anomaly (a co-holder taken for a waiter
	// that watches nothing) pages nobody; by the entry there is none.
	out, _, code := run(t, "check", "--server", zks.Addr(), "--config", none, lock)
	if code != int(check.Warning) || !strings.Contains(out, "unwatched-waiter") || !strings.Contains(out, "rests on an assumption") {
		t.Fatalf("check on the assumed reading: exit %d, want a warning of the unwatched co-holder that says it rests on an assumption:\n%s", code, out)
	}
	if out, _, code := run(t, "check", "--server", zks.Addr(), "--config", config, lock); code != int(check.OK) {
		t.Fatalf("check by the entry: exit %d:\n%s", code, out)
	}

	out, errOut, code := run(t, "explain", "--server", zks.Addr(), "--config", config, lock)
	if code != exitOK || !strings.Contains(out, "entry: acme-rw") || !strings.Contains(out, "2 holding, 2 waiting") {
		t.Fatalf("explain exited %d: %s\n%s", code, errOut, out)
	}
}

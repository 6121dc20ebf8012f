package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// explainBook is the book of recipesConfig's global entries, as the file
// gives them.
func explainBook(t *testing.T) (*lockcore.Book, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte(recipesConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	cf, err := readConfig(path, true)
	if err != nil {
		t.Fatal(err)
	}
	b, err := cf.book("")
	if err != nil {
		t.Fatal(err)
	}
	return b, dir
}

func explainTree(path string, names ...string) lockcore.Tree {
	at := time.Date(2026, 11, 26, 3, 0, 0, 0, time.UTC)
	t := lockcore.Tree{Path: path, ReadAt: at, Self: lockcore.Node{Name: filepath.Base(path), Stat: zk.Stat{Czxid: 0x100000001}}}
	for i, n := range names {
		t.Children = append(t.Children, lockcore.Node{Name: n, Stat: zk.Stat{Czxid: int64(0x100000002 + i), EphemeralOwner: int64(0x100 + i),
			Ctime: at.Add(-time.Minute).UnixMilli()}})
	}
	return t
}

// explain on a known lock (the user's entry), one read by assumption (no
// entry; its names' words taken as modes) and an unknown one.
func TestExplainGolden(t *testing.T) {
	book, dir := explainBook(t)
	for _, tc := range []struct {
		name string
		tree lockcore.Tree
	}{
		{"known", explainTree("/acme/orders", "web1~wr~0000000001", "web2~rd~0000000002", "web3~rd~0000000003", "stray")},
		{"assumed", explainTree("/pool/nightly", "job-read-0000000007", "job-write-0000000008", "job-0000000009")},
		{"unknown", explainTree("/services/api", "config", "status")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, l := explain(tc.tree, book)
			var text bytes.Buffer
			if err := writeExplainText(&text, x, l); err != nil {
				t.Fatal(err)
			}
			shown := bytes.ReplaceAll(text.Bytes(), []byte(dir), []byte("$CONFIG_DIR"))
			golden(t, filepath.Join("testdata", "explain_"+tc.name+".golden"), shown)
			var js bytes.Buffer
			if err := writeExplainJSON(&js, x, l); err != nil {
				t.Fatal(err)
			}
			var got struct {
				Entry   *struct{ Name string } `json:"entry"`
				Assumed []string               `json:"assumed"`
			}
			if err := json.Unmarshal(js.Bytes(), &got); err != nil {
				t.Fatalf("%v\n%s", err, js.String())
			}
			known := got.Entry != nil && len(got.Assumed) == 0
			if known != (tc.name == "known") || (len(got.Assumed) > 0) != (tc.name == "assumed") {
				t.Fatalf("JSON entry %v, assumed %q", got.Entry, got.Assumed)
			}
		})
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./internal/cli -run %s -update writes it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs (-update rewrites it); got:\n%s\nwant:\n%s", path, got, want)
	}
}

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zklocks/zklocks/lockcore"
)

const recipesConfig = `
current-context: prod
recipes:
  - name: acme-rw
    about: ACME's read/write lock
    paths: [/acme/**]
    children: "{owner}~{mode}~{seq}"
    modes: {rd: read, wr: write}
    grant: read-write
  - name: acme-pool
    paths: [/pool/*]
    children: "slot-{seq}"
    grant: semaphore
    limit: "3"
contexts:
  prod:
    server: zk1:2181
    recipes:
      - name: acme-pool
        paths: [/pool/*]
        children: "slot-{seq}"
        grant: semaphore
        limit: "5"
      - name: billing-election
        paths: [/billing/leader]
        children: "cand-{id}-{seq}"
        grant: election
        identity: name:id
  dev:
    server: dev:2181
`

func TestConfigRecipes(t *testing.T) {
	s, err := loadSettings(t, recipesConfig, nil)
	if err != nil {
		t.Fatal(err)
	}
	entries := s.book.Entries()
	var names []string
	for _, e := range entries[:s.book.UserEntries()] {
		names = append(names, e.Name)
	}
	// The context's entries first; its acme-pool replaces the global one.
	if got := strings.Join(names, " "); got != "acme-pool billing-election acme-rw" {
		t.Fatalf("user entries %q", got)
	}
	if entries[0].Limit != "5" || !strings.Contains(entries[0].Source, "context prod, recipes, line") {
		t.Fatalf("acme-pool: limit %q, source %q; want the context's", entries[0].Limit, entries[0].Source)
	}
	if e, ok := s.book.Entry("acme-rw"); !ok || !strings.HasSuffix(e.Source, ", recipes, line 4") || e.ReadWaitsOn != lockcore.ReadNearestWrite {
		t.Fatalf("acme-rw: %+v", e)
	}
	var view strings.Builder
	if err := writeView(&view, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(view.String(), "recipes: # zklocks recipes shows them whole\n  - acme-pool # ") ||
		!strings.Contains(view.String(), "  - acme-rw # ") {
		t.Fatalf("config view does not list the recipes in force:\n%s", view.String())
	}
	dev, err := loadSettings(t, recipesConfig, nil, "--context", "dev")
	if err != nil {
		t.Fatal(err)
	}
	if n := dev.book.UserEntries(); n != 2 {
		t.Fatalf("dev has %d user entries, want the 2 global ones", n)
	}
	if e, _ := dev.book.Entry("acme-pool"); e.Limit != "3" {
		t.Fatalf("dev's acme-pool limit %q, want the global 3", e.Limit)
	}
}

// A bad entry refuses the whole file, naming the file, the entry and the
// field; nothing of the file is applied.
func TestConfigRecipesRefused(t *testing.T) {
	entry := func(fields string) string {
		return "recipes:\n  - name: acme\n    paths: [/acme/*]\n" + fields
	}
	cases := []struct {
		name, config string
		says         []string
	}{
		{"unknown field", entry("    children: \"x-{seq}\"\n    grant: mutex\n    grnt: mutex\n"),
			[]string{`recipe 1 ("acme", line 2)`, "grnt (line 6): no such field", "the fields are name, about, paths"}},
		{"field twice", entry("    children: \"x-{seq}\"\n    grant: mutex\n    grant: mutex\n"),
			[]string{`recipe 1 ("acme", line 2)`, "grant (line 6): given twice"}},
		{"wrong type", entry("    children: [x]\n    grant: mutex\n"),
			[]string{`recipe 1 ("acme", line 2)`, "line 4: cannot unmarshal"}},
		{"not a list", "recipes: {name: acme}\n", []string{"recipes must be a list"}},
		{"not a mapping", "recipes:\n  - acme\n", []string{"recipe 1 (line 2)", "mapping of fields"}},
		{"bad grant", entry("    children: \"x-{seq}\"\n    grant: fifo\n"),
			[]string{"recipes: recipe 1 (\"acme\"): grant: must be mutex"}},
		{"bad pattern", entry("    children: \"{host}-{seq}\"\n    grant: mutex\n"),
			[]string{"recipes: recipe 1 (\"acme\"): children: {host} is no part"}},
		{"second entry bad", entry("    children: \"x-{seq}\"\n    grant: mutex\n") +
			"  - name: other\n    children: \"y-{seq}\"\n    grant: semaphore\n",
			[]string{`recipes: recipe 2 ("other"): limit: a semaphore needs its lease count`}},
		{"in a context", "contexts:\n  prod:\n    server: zk:2181\n    recipes:\n      - name: curator-mutex\n        children: \"x-{seq}\"\n        grant: mutex\n",
			[]string{`context "prod": recipes: recipe 1 ("curator-mutex"): name: "curator-mutex" is a built-in entry's name`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.yaml")
			if err := os.WriteFile(path, []byte(tc.config), 0o600); err != nil {
				t.Fatal(err)
			}
			cf, err := readConfig(path, true)
			if err == nil || cf != nil {
				t.Fatalf("readConfig = %v, %v; want it refused", cf, err)
			}
			msg := err.Error()
			if !strings.Contains(msg, path) {
				t.Errorf("error %q does not name the file", msg)
			}
			for _, s := range tc.says {
				if !strings.Contains(msg, s) {
					t.Errorf("error %q does not say %q", msg, s)
				}
			}
		})
	}
}

// FuzzConfigRecipes: whatever the file holds, the loader refuses it with
// an error or gives a book that reads a lock without failing.
func FuzzConfigRecipes(f *testing.F) {
	f.Add([]byte(recipesConfig))
	f.Add([]byte("recipes:\n  - name: a\n    paths: [/a/**]\n    children: \"{owner}.{mode}.{seq}\"\n    modes: {R: read, W: write}\n    grant: read-write\n    identity: json:host\n"))
	f.Add([]byte("recipes:\n  - name: h\n    paths: [/h/*=*]\n    children: \"LOCK-{mode}-{seq}\"\n    modes: {SHARED: read, EXCLUSIVE: write}\n    grant: co-holding\n    persistent: true\n"))
	f.Add([]byte("recipes:\n  - name: s\n    paths: [/s/leader]\n    grant: single-node\n    identity: \"data:host=(\\\\w+)\"\n"))
	f.Add([]byte("recipes:\n  - name: p\n    children: \"p-{session}-{seq}\"\n    grant: semaphore\n    limit: data\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(dir, "config.yaml")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		cf, err := readConfig(path, true)
		if err != nil {
			if cf != nil {
				t.Fatalf("refused with %v, yet gave a config", err)
			}
			return
		}
		book, err := cf.book("")
		if err != nil {
			t.Fatalf("a config read whole gives no book: %v", err)
		}
		for _, e := range book.Entries()[:book.UserEntries()] {
			kids := []lockcore.Node{{Name: "x-0000000001"}, {Name: "web1.R.0000000002", Data: []byte(`{"host":"h"}`)}}
			for _, p := range append(e.Paths, "/a/b") {
				lockcore.Analyze(lockcore.Tree{Path: strings.ReplaceAll(p, "*", "x"), Children: kids}, nil, lockcore.Options{Book: book})
			}
		}
	})
}

func TestRecipesCommand(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte(recipesConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "recipes", "--config", path, "--context", "dev")
	if code != exitOK {
		t.Fatalf("recipes exited %d: %s", code, errOut)
	}
	yours, builtin := strings.Index(out, "\nyours"), strings.Index(out, "\nbuilt-in:")
	if yours < 0 || builtin < yours || !strings.Contains(out[yours:builtin], "acme-rw  read-write") ||
		!strings.Contains(out[builtin:], "curator-mutex  mutex") || !strings.Contains(out, "decoder:<name>: accumulo-lock") {
		t.Fatalf("recipes:\n%s", out)
	}
	out, _, code = run(t, "recipes", "--json", "--config", path)
	var got struct {
		Entries []lockcore.Entry `json:"entries"`
		Yours   int              `json:"yours"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != exitOK {
		t.Fatalf("recipes --json: exit %d, %v\n%s", code, err, out)
	}
	// The current context is prod: its two entries, then acme-rw.
	if got.Yours != 3 || got.Entries[0].Name != "acme-pool" || got.Entries[0].Limit != "5" || got.Entries[3].Builtin != true {
		t.Fatalf("recipes --json: %d yours, first %+v", got.Yours, got.Entries[0])
	}
}

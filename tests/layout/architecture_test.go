package layout

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// layoutRow is one row of docs/architecture.md's layout table: the paths
// its first cell names (package directories, files, or file patterns).
type layoutRow struct {
	line  int
	paths []string
}

var backticked = regexp.MustCompile("`([^`]+)`")

// layoutTable reads the table under docs/architecture.md's "## Layout":
// the rows whose first cell names paths in backquotes.
func layoutTable(t *testing.T, root string) []layoutRow {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []layoutRow
	in := false
	for i, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, "## ") {
			in = line == "## Layout"
			continue
		}
		if !in || !strings.HasPrefix(line, "| `") {
			continue
		}
		first := strings.SplitN(line[1:], "|", 2)[0]
		row := layoutRow{line: i + 1}
		for _, m := range backticked.FindAllStringSubmatch(first, -1) {
			row.paths = append(row.paths, m[1])
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		t.Fatal("docs/architecture.md has no layout table under \"## Layout\"")
	}
	return rows
}

// moduleRoot is the directory of the module's go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// TestArchitectureNamesEveryPackage keeps docs/architecture.md's layout
// table true of the tree: every package directory has a row, every path
// the table names exists, and in a package the table splits into file
// groups, every file (tests aside) belongs to a group.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	root := moduleRoot(t)
	rows := layoutTable(t, root)
	named := map[string]bool{}
	groups := map[string][]string{} // package directory -> its file patterns
	for _, row := range rows {
		for _, p := range row.paths {
			named[p] = true
			matches, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(p)))
			if err != nil || len(matches) == 0 {
				t.Errorf("docs/architecture.md:%d names %s, which is not in the tree", row.line, p)
			}
			if strings.HasSuffix(p, ".go") && strings.Contains(p, "/") {
				dir := p[:strings.LastIndex(p, "/")]
				groups[dir] = append(groups[dir], p)
			}
		}
	}

	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dirs := strings.Fields(string(out))
	if len(dirs) < 8 {
		t.Fatalf("go list named only %d packages; is the module path %s?", len(dirs), module)
	}
	for _, dir := range dirs {
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			t.Fatal(err)
		}
		rel = filepath.ToSlash(rel)
		if rel == "." {
			rel = "main.go"
		}
		if !named[rel] {
			t.Errorf("package %s has no row in docs/architecture.md's layout table", rel)
		}
	}

	for dir, patterns := range groups {
		files, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(dir), "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			rel := dir + "/" + filepath.Base(f)
			if !matchesAny(patterns, rel) {
				t.Errorf("%s is in no file group of %s in docs/architecture.md's layout table", rel, dir)
			}
		}
	}
}

// matchesAny reports whether name matches one of the patterns.
func matchesAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if ok, _ := filepath.Match(p, name); ok {
			return true
		}
	}
	return false
}

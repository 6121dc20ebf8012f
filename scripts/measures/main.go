// Command measures prints the code's measures as docs/architecture.md
// shows them: non-test lines per product package and in all, whether any
// built-in rule book entry is still read by Go code (Coded), zkwatch's
// file count, model.State's fields and methods, zkwatch.Watcher's and
// ui.App's methods, the longest function that is not a table, and how
// many pairs of places in product code share six or more lines (by the
// duplicates tool, when it is on PATH).
//
//	go run ./scripts/measures           # print the table
//	go run ./scripts/measures -update   # and write it into docs/architecture.md
//	go run ./scripts/measures -long 80  # list every function over 80 lines that is not a table
//
// Product code is every non-test Go file outside internal/testkit and
// tests/. Run it from the module's root.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/zklocks/zklocks/lockcore"
)

const (
	doc   = "docs/architecture.md"
	begin = "<!-- measures: begin (go run ./scripts/measures -update) -->"
	end   = "<!-- measures: end -->"
)

func main() {
	update := flag.Bool("update", false, "write the table into "+doc)
	long := flag.Int("long", 0, "list every function over this many lines that is not a table, and print nothing else")
	flag.Parse()
	files, err := productFiles(".")
	if err != nil {
		fail(err)
	}
	if *long > 0 {
		for _, f := range funcs(files) {
			if f.lines > *long {
				fmt.Printf("%4d %s\n", f.lines, f.name)
			}
		}
		return
	}
	out := report(files)
	fmt.Print(out)
	if *update {
		if err := write(doc, out); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "measures:", err)
	os.Exit(1)
}

// productFiles lists the product's non-test Go files by package directory.
func productFiles(root string) (map[string][]string, error) {
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch p {
			case ".git", "internal/testkit", "tests", "scripts":
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			out[filepath.Dir(p)] = append(out[filepath.Dir(p)], p)
		}
		return nil
	})
	return out, err
}

// pkg is one package parsed.
type pkg struct {
	fset  *token.FileSet
	files []*ast.File
}

func parse(paths []string) pkg {
	p := pkg{fset: token.NewFileSet()}
	for _, f := range paths {
		af, err := parser.ParseFile(p.fset, f, nil, 0)
		if err != nil {
			fail(err)
		}
		p.files = append(p.files, af)
	}
	return p
}

func report(files map[string][]string) string {
	var b strings.Builder
	dirs := make([]string, 0, len(files))
	for d := range files {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	b.WriteString("| measure | value |\n|---|---|\n")
	total := 0
	var per []string
	for _, d := range dirs {
		n := 0
		for _, f := range files[d] {
			n += lines(f)
		}
		total += n
		per = append(per, fmt.Sprintf("`%s` %d", d, n))
	}
	fmt.Fprintf(&b, "| non-test lines in all (product packages) | %d |\n", total)
	fmt.Fprintf(&b, "| non-test lines per package | %s |\n", strings.Join(per, ", "))
	fmt.Fprintf(&b, "| built-in entries read by Go code (`Coded`) | %s |\n", coded())
	fmt.Fprintf(&b, "| `zkwatch` files (non-test, the package itself) | %d |\n", len(files["zkwatch"]))
	model, zkwatch, ui := parse(files["model"]), parse(files["zkwatch"]), parse(files["ui"])
	fmt.Fprintf(&b, "| `model.State` fields, methods | %d, %d |\n", fields(model, "State"), methods(model, "State"))
	fmt.Fprintf(&b, "| `zkwatch.Watcher` methods | %d |\n", methods(zkwatch, "Watcher"))
	fmt.Fprintf(&b, "| `ui.App` methods | %d |\n", methods(ui, "App"))
	name, n := longest(files)
	fmt.Fprintf(&b, "| longest function that is not a table | %d lines (`%s`) |\n", n, name)
	fmt.Fprintf(&b, "| pairs of places in product code sharing six or more lines (`duplicates`) | %s |\n", duplicates(files, false))
	fmt.Fprintf(&b, "| the same, Go's grouped import lists passed over | %s |\n", duplicates(files, true))
	return b.String()
}

func lines(path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		fail(err)
	}
	return bytes.Count(data, []byte("\n"))
}

// coded counts the built-in entries whose Coded field names Go code; "none"
// once the field is gone or empty everywhere.
func coded() string {
	n := 0
	for _, e := range (*lockcore.Book)(nil).Entries() {
		if f := reflect.ValueOf(e).FieldByName("Coded"); f.IsValid() && f.String() != "" {
			n++
		}
	}
	if n == 0 {
		return "none"
	}
	return fmt.Sprintf("%d of %d", n, len((*lockcore.Book)(nil).Entries()))
}

func fields(p pkg, typ string) int {
	n := 0
	for _, f := range p.files {
		ast.Inspect(f, func(x ast.Node) bool {
			ts, ok := x.(*ast.TypeSpec)
			if !ok || ts.Name.Name != typ {
				return true
			}
			if st, ok := ts.Type.(*ast.StructType); ok {
				for _, fl := range st.Fields.List {
					n += max(len(fl.Names), 1)
				}
			}
			return false
		})
	}
	return n
}

func methods(p pkg, typ string) int {
	n := 0
	for _, f := range p.files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 {
				continue
			}
			t := fd.Recv.List[0].Type
			if s, ok := t.(*ast.StarExpr); ok {
				t = s.X
			}
			if id, ok := t.(*ast.Ident); ok && id.Name == typ {
				n++
			}
		}
	}
	return n
}

// function is one function of product code: where it starts and its name,
// and how many lines it spans.
type function struct {
	name  string
	lines int
}

// funcs lists the functions in product code whose lines are not mostly one
// table (composite literals: key maps, rule book entries), longest first.
func funcs(files map[string][]string) []function {
	var out []function
	for _, paths := range files {
		p := parse(paths)
		for _, f := range p.files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				start, stop := p.fset.Position(fd.Pos()), p.fset.Position(fd.End())
				n := stop.Line - start.Line + 1
				if 2*literalLines(p.fset, fd.Body) >= n {
					continue
				}
				out = append(out, function{fmt.Sprintf("%s:%d %s", start.Filename, start.Line, fd.Name.Name), n})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].lines != out[j].lines {
			return out[i].lines > out[j].lines
		}
		return out[i].name < out[j].name
	})
	return out
}

// longest is the longest function in product code that is not a table.
func longest(files map[string][]string) (string, int) {
	fs := funcs(files)
	if len(fs) == 0 {
		return "", 0
	}
	return fs[0].name, fs[0].lines
}

// literalLines counts the lines of body inside its outermost composite
// literals.
func literalLines(fset *token.FileSet, body *ast.BlockStmt) int {
	n := 0
	ast.Inspect(body, func(x ast.Node) bool {
		if cl, ok := x.(*ast.CompositeLit); ok {
			n += fset.Position(cl.End()).Line - fset.Position(cl.Pos()).Line + 1
			return false
		}
		return true
	})
	return n
}

var pairs = regexp.MustCompile(`^(\d+) pairs`)

// duplicates runs the duplicates tool over a copy of the product's Go
// files alone, and returns its pair count. With noImports each file's
// import declarations are blanked in the copy (lines kept, so places stay
// where they are): the tool passes over single import lines but reads a
// parenthesised list as code, so files that merely use the same packages
// pair up.
func duplicates(files map[string][]string, noImports bool) string {
	if _, err := exec.LookPath("duplicates"); err != nil {
		return "not measured: the duplicates tool is not on PATH"
	}
	dir, err := os.MkdirTemp("", "measures")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	for _, paths := range files {
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				fail(err)
			}
			if noImports {
				data = blankImports(data)
			}
			dst := filepath.Join(dir, p)
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				fail(err)
			}
			if err := os.WriteFile(dst, data, 0o644); err != nil {
				fail(err)
			}
		}
	}
	out, err := exec.Command("duplicates", "--repo", dir, "--seconds", "300").Output()
	if err != nil {
		return "not measured: " + err.Error()
	}
	first, _, _ := strings.Cut(string(out), "\n")
	if strings.HasPrefix(first, "no duplicates") {
		return "0"
	}
	m := pairs.FindStringSubmatch(first)
	if m == nil {
		return "not measured: " + strconv.Quote(first)
	}
	if strings.Contains(string(out), "\nincomplete:") {
		return m[1] + " (incomplete: the tool ran out of time)"
	}
	return m[1]
}

// blankImports replaces the lines of a Go file's import declarations
// with empty ones; a file that does not parse is returned as it is.
func blankImports(src []byte) []byte {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ImportsOnly)
	if err != nil {
		return src
	}
	lines := bytes.Split(src, []byte("\n"))
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			continue
		}
		for l := fset.Position(g.Pos()).Line; l <= fset.Position(g.End()).Line; l++ {
			lines[l-1] = nil
		}
	}
	return bytes.Join(lines, []byte("\n"))
}

// write puts the table between doc's markers.
func write(path, table string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(data)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		return fmt.Errorf("%s has no %q … %q section", path, begin, end)
	}
	s = s[:i+len(begin)] + "\n\n" + table + "\n" + s[j:]
	return os.WriteFile(path, []byte(s), 0o644)
}

// Package layout holds the checks of the tree's layout: no package the
// binary can link may import a test rig, a leaf package imports nothing
// of zklocks, and docs/architecture.md's layout table names every package
// as it stands.
package layout

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/zklocks/zklocks"

// rig tells whether a package is one of the tests' rigs or suites.
func rig(importPath string) bool {
	return strings.HasPrefix(importPath, module+"/internal/testkit") ||
		strings.HasPrefix(importPath, module+"/tests/")
}

// TestProductImportsNoRig lists every package's own (non-test) imports
// with `go list` and fails on a product package that imports a rig.
func TestProductImportsNoRig(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	products := 0
	scanner := bufio.NewScanner(bytes.NewReader(out))
	for scanner.Scan() {
		fields := strings.Fields(scanner.Text())
		if len(fields) == 0 || rig(fields[0]) {
			continue
		}
		products++
		for _, imported := range fields[1:] {
			if rig(imported) {
				t.Errorf("product package %s imports the test rig %s", fields[0], imported)
			}
		}
	}
	if products < 8 {
		t.Fatalf("go list named only %d product packages; is the module path %s?", products, module)
	}
}

// leaves are the product packages that stand alone: they import nothing of
// zklocks, so that what they do can be read, tested and reused without the
// rest.
var leaves = []string{
	module + "/zkwatch/words", // asking members and reading their answers
}

// TestLeavesImportNothingOfZklocks lists each leaf package's own
// (non-test) imports with `go list` and fails on any of this module.
func TestLeavesImportNothingOfZklocks(t *testing.T) {
	args := append([]string{"list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`}, leaves...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	listed := 0
	scanner := bufio.NewScanner(bytes.NewReader(out))
	for scanner.Scan() {
		fields := strings.Fields(scanner.Text())
		if len(fields) == 0 {
			continue
		}
		listed++
		for _, imported := range fields[1:] {
			if imported == module || strings.HasPrefix(imported, module+"/") {
				t.Errorf("leaf package %s imports %s", fields[0], imported)
			}
		}
	}
	if listed != len(leaves) {
		t.Fatalf("go list named %d of the %d leaf packages", listed, len(leaves))
	}
}

// TestRigTellsRigs keeps rig() itself honest.
func TestRigTellsRigs(t *testing.T) {
	for path, want := range map[string]bool{
		module + "/internal/testkit/zktest": true,
		module + "/tests/chaos":             true,
		module + "/internal/zkserver":       false,
		module + "/internal/cli":            false,
		module + "/zkwatch":                 false,
	} {
		if got := rig(path); got != want {
			t.Errorf("rig(%s) = %v, want %v", path, got, want)
		}
	}
}

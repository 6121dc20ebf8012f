// Package layout holds the checks of the tree's layout: no package the
// binary can link may import a test rig, and docs/architecture.md's layout
// table names every package as it stands.
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

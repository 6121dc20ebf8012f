// Package layout holds the checks of the tree's layout: no package the
// binary can link may import a test rig, a leaf package imports nothing
// of zklocks, no package imports one of a layer above its own, the
// suites that run the binary live in tests/e2e and drive it as a user
// does, no package imports a suite, the hub zklocks serve's sessions
// share knows nothing of SSH, and docs/architecture.md's layout table
// names every package as it stands.
package layout

import (
	"bufio"
	"bytes"
	"os/exec"
	"slices"
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
	module + "/lockcore",      // what a lock is: pure functions over what was read
	module + "/zkwatch/words", // asking members and reading their answers
	module + "/zkwatch/jute",  // ZooKeeper's record encoding: the wire and the transaction log
	module + "/zkwatch/sasl",  // the client side of SASL mechanisms
	module + "/zkwatch/tick",  // a function called on a period
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

// binaryRigs are the test kit's packages that build and drive the zklocks
// binary: the tests that use them are end-to-end tests.
var binaryRigs = []string{
	module + "/internal/testkit/zklocksbin",
	module + "/internal/testkit/tmuxscreen",
	module + "/internal/testkit/serverig",
}

// suite tells whether a package is one of the long suites under tests/
// (end-to-end, benchmarks, chaos), which nothing may import.
func suite(importPath string) bool {
	return strings.HasPrefix(importPath, module+"/tests/")
}

// listed is one package as `go list` names it and its imports, its own
// and its tests'.
type listed struct {
	path               string
	imports, testPaths []string
}

// list runs `go list` over the module.
func list(t *testing.T) []listed {
	t.Helper()
	out, err := exec.Command("go", "list", "-f",
		`{{.ImportPath}}|{{join .Imports " "}}|{{join .TestImports " "}} {{join .XTestImports " "}}`, module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []listed
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.SplitN(line, "|", 3)
		if len(parts) != 3 {
			t.Fatalf("go list printed %q", line)
		}
		pkgs = append(pkgs, listed{parts[0], strings.Fields(parts[1]), strings.Fields(parts[2])})
	}
	return pkgs
}

// TestBinaryDrivenOnlyFromE2E fails on a package outside tests/ whose
// tests build or drive the zklocks binary: such a test is end-to-end and
// belongs in tests/e2e (or, a benchmark, in tests/bench), where the make
// targets that run long suites find it. The test kit's own rigs may build
// on the binary's (a rig that runs zklocks serve does); their tests may
// not.
func TestBinaryDrivenOnlyFromE2E(t *testing.T) {
	for _, p := range list(t) {
		if suite(p.path) {
			continue
		}
		imports := p.testPaths
		if !rig(p.path) {
			imports = append(imports, p.imports...)
		}
		for _, imported := range imports {
			if slices.Contains(binaryRigs, imported) {
				t.Errorf("%s imports %s: its tests run the binary, so they belong in tests/e2e", p.path, imported)
			}
		}
	}
}

// TestE2EDrivesTheBinary fails when tests/e2e imports internal/cli: an
// end-to-end test reaches the commands through the binary, as a user does,
// never through the package's functions.
func TestE2EDrivesTheBinary(t *testing.T) {
	found := false
	for _, p := range list(t) {
		if p.path != module+"/tests/e2e" {
			continue
		}
		found = true
		for _, imported := range append(p.imports, p.testPaths...) {
			if imported == module+"/internal/cli" {
				t.Errorf("tests/e2e imports internal/cli: run the binary (zklocksbin.Path) instead")
			}
		}
	}
	if !found {
		t.Fatal("go list does not name tests/e2e")
	}
}

// TestNothingImportsASuite fails when any package, or its tests, imports
// a suite under tests/: what suites share belongs in internal/testkit.
func TestNothingImportsASuite(t *testing.T) {
	for _, p := range list(t) {
		for _, imported := range append(p.imports, p.testPaths...) {
			if suite(imported) && imported != p.path {
				t.Errorf("%s imports the suite %s: move what it needs into internal/testkit", p.path, imported)
			}
		}
	}
}

// sshPackages are the SSH server's libraries: only internal/serve (and
// the tests that connect to it) may import them.
var sshPackages = []string{
	"github.com/charmbracelet/ssh",
	"github.com/charmbracelet/wish",
	"golang.org/x/crypto/ssh",
}

// TestHubKnowsNoSSH fails when internal/hub, the watchers zklocks serve's
// sessions share, imports the SSH server, its libraries or the UI: the
// hub hands pictures to whoever views them, as soft-serve's backend knows
// nothing of its SSH server.
func TestHubKnowsNoSSH(t *testing.T) {
	found := false
	for _, p := range list(t) {
		if p.path != module+"/internal/hub" {
			continue
		}
		found = true
		for _, imported := range p.imports {
			above := imported == module+"/internal/serve" || imported == module+"/ui" || imported == module+"/internal/cli"
			if above || slices.Contains(sshPackages, imported) || strings.HasPrefix(imported, "github.com/charmbracelet/wish/") {
				t.Errorf("internal/hub imports %s: the hub knows nothing of the SSH server or the UI", imported)
			}
		}
	}
	if !found {
		t.Fatal("go list does not name internal/hub")
	}
}

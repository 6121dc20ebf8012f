package layout

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// layers ranks the product packages as docs/architecture.md draws them:
// main.go → internal/… (the command line, the SSH server, the demo, the
// exporter) → ui → model (with model/check and model/fleet) and recording
// → zkwatch → lockclient → lockcore ("." is the module's root, main.go). A package is in the layer of the longest prefix
// of its path named here, so a new package under one of them takes its
// parent's place; scripts are tools beside the binary.
var layers = map[string]int{
	".":          6,
	"scripts":    6,
	"internal":   5,
	"ui":         4,
	"model":      3,
	"recording":  3,
	"zkwatch":    2,
	"lockclient": 1,
	"lockcore":   0,
}

// layer returns the rank of a package of this module, and false for a
// package that no entry of layers places.
func layer(importPath string) (int, bool) {
	rel, ok := strings.CutPrefix(importPath, module)
	if !ok || (rel != "" && !strings.HasPrefix(rel, "/")) {
		return 0, false
	}
	if rel == "" {
		return layers["."], true
	}
	rel = rel[1:]
	for {
		if r, ok := layers[rel]; ok {
			return r, true
		}
		i := strings.LastIndex(rel, "/")
		if i < 0 {
			return 0, false
		}
		rel = rel[:i]
	}
}

// TestLayersPointOneWay fails when a product package imports one of a
// layer above its own (the UI importing the command line's packages, the
// model importing the UI), or when a package of this module is in no
// layer.
func TestLayersPointOneWay(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	checked := 0
	scanner := bufio.NewScanner(bytes.NewReader(out))
	for scanner.Scan() {
		fields := strings.Fields(scanner.Text())
		if len(fields) == 0 || rig(fields[0]) {
			continue
		}
		own, ok := layer(fields[0])
		if !ok {
			t.Errorf("package %s is in no layer: place it in tests/layout's layers and docs/architecture.md", fields[0])
			continue
		}
		checked++
		for _, imported := range fields[1:] {
			if !strings.HasPrefix(imported, module+"/") || rig(imported) {
				continue
			}
			if r, ok := layer(imported); ok && r > own {
				t.Errorf("%s imports %s, a layer above its own: move what it needs down", fields[0], imported)
			}
		}
	}
	if checked < 8 {
		t.Fatalf("go list named only %d product packages", checked)
	}
}

// TestLayerPlacesPackages keeps layer() itself honest.
func TestLayerPlacesPackages(t *testing.T) {
	for path, want := range map[string]int{
		module:                         6,
		module + "/internal/cli":       5,
		module + "/internal/serve/hub": 5,
		module + "/ui":                 4,
		module + "/model/check":        3,
		module + "/recording/txnlog":   3,
		module + "/zkwatch/jute":       2,
		module + "/lockclient":         1,
		module + "/lockcore":           0,
	} {
		if got, ok := layer(path); !ok || got != want {
			t.Errorf("layer(%s) = %d, %v; want %d", path, got, ok, want)
		}
	}
	for _, path := range []string{module + "/elsewhere", module + "x/ui", "github.com/go-zookeeper/zk"} {
		if _, ok := layer(path); ok {
			t.Errorf("layer(%s) placed a package no entry names", path)
		}
	}
}

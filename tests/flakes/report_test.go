package main

import (
	"bytes"
	"strings"
	"testing"
)

// stream is go test -json's output of two runs (-count 2) of a package
// where TestA fails once (by its subtest), TestB always passes, and of a
// second package that timed out.
const stream = `{"Action":"start","Package":"p"}
{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"run","Package":"p","Test":"TestA/sub"}
{"Action":"output","Package":"p","Test":"TestA/sub","Output":"    a_test.go:9: got 1, want 2\n"}
{"Action":"fail","Package":"p","Test":"TestA/sub"}
{"Action":"output","Package":"p","Test":"TestA","Output":"--- FAIL: TestA (0.01s)\n"}
{"Action":"fail","Package":"p","Test":"TestA"}
{"Action":"run","Package":"p","Test":"TestB"}
{"Action":"pass","Package":"p","Test":"TestB"}
{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"run","Package":"p","Test":"TestA/sub"}
{"Action":"pass","Package":"p","Test":"TestA/sub"}
{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"run","Package":"p","Test":"TestB"}
{"Action":"pass","Package":"p","Test":"TestB"}
{"Action":"output","Package":"p","Output":"FAIL\n"}
{"Action":"fail","Package":"p"}
{"Action":"start","Package":"q"}
{"Action":"run","Package":"q","Test":"TestSlow"}
{"Action":"output","Package":"q","Output":"panic: test timed out after 1m0s\n"}
{"Action":"output","Package":"q","Output":"\trunning tests:\n"}
{"Action":"output","Package":"q","Output":"\t\tTestSlow (1m0s)\n"}
{"Action":"fail","Package":"q"}
{"ImportPath":"r_test [r.test]","Action":"build-output","Output":"r/x_test.go:5:2: could not import path/filepath\n"}
{"ImportPath":"r_test [r.test]","Action":"build-fail"}
{"Action":"start","Package":"r"}
{"Action":"output","Package":"r","Output":"FAIL\tr [build failed]\n"}
{"Action":"fail","Package":"r"}
go: some message that is not JSON
`

func TestReportNamesEachFailedTestOnce(t *testing.T) {
	r := newReport()
	if err := r.read(strings.NewReader(stream)); err != nil {
		t.Fatal(err)
	}
	got := r.failed()
	want := []key{{pkg: "p", test: "TestA"}, {pkg: "q"}, {pkg: "r"}}
	if len(got) != len(want) {
		t.Fatalf("failed = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("failed = %v, want %v", got, want)
		}
	}
	if a := r.tests[want[0]]; a.runs != 2 || len(a.failures) != 1 {
		t.Errorf("TestA: %d runs, %d failures; want 2 runs, 1 failure", a.runs, len(a.failures))
	}
	if b := r.tests[want[2]]; len(b.failures) != 1 {
		t.Errorf("a build that failed counted %d times, want once", len(b.failures))
	}

	var out bytes.Buffer
	r.print(&out)
	for _, line := range []string{
		"--- p TestA: failed 1 of 2 runs",
		"a_test.go:9: got 1, want 2",
		"--- FAIL: TestA",
		"--- q (the package itself): failed 1 of 1 runs",
		"panic: test timed out after 1m0s",
		"TestSlow (1m0s)",
		"--- r (the package itself)",
		"could not import path/filepath",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("report lacks %q:\n%s", line, out.String())
		}
	}
	if strings.Contains(out.String(), "=== RUN") || strings.Contains(out.String(), "TestB") {
		t.Errorf("report shows progress lines or a test that passed:\n%s", out.String())
	}
}

func TestReportOfPassingRunsIsEmpty(t *testing.T) {
	r := newReport()
	if err := r.read(strings.NewReader(`{"Action":"start","Package":"p"}
{"Action":"run","Package":"p","Test":"TestB"}
{"Action":"pass","Package":"p","Test":"TestB"}
{"Action":"pass","Package":"p"}
`)); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	r.print(&out)
	if out.Len() != 0 {
		t.Errorf("report of passing runs = %q, want nothing", out.String())
	}
}

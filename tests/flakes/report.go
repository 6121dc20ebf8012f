package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// event is one line of go test -json (cmd/test2json).
type event struct {
	Action     string
	Package    string
	ImportPath string // a build's events name their package here
	Test       string
	Output     string
}

// key names a top-level test of a package; a package's own output (a
// timeout's panic, a build failure) has an empty test.
type key struct{ pkg, test string }

// tally is what the runs said of one test.
type tally struct {
	runs     int
	failures []string // each failed run's output
}

// report reads go test -json and keeps, for every top-level test, how many
// times it ran and the output of each run that failed. A subtest's output
// and failure count towards its top-level test, which fails with it.
type report struct {
	tests   map[key]*tally
	current map[key][]string // the output of the run under way
}

func newReport() *report {
	return &report{tests: map[key]*tally{}, current: map[key][]string{}}
}

// read consumes a go test -json stream until it ends; lines that are not
// JSON (go test's own messages) are kept as the output of no package.
func (r *report) read(in io.Reader) error {
	scanner := bufio.NewScanner(in)
	scanner.Buffer(make([]byte, 1<<20), 16<<20)
	for scanner.Scan() {
		var e event
		if err := json.Unmarshal(scanner.Bytes(), &e); err != nil {
			e = event{Action: "output", Output: scanner.Text() + "\n"}
		}
		r.add(e)
	}
	return scanner.Err()
}

func (r *report) add(e event) {
	if e.Package == "" {
		// A test binary's build: "pkg [pkg.test]" or "pkg_test [pkg.test]".
		pkg, _, _ := strings.Cut(e.ImportPath, " ")
		e.Package = strings.TrimSuffix(pkg, "_test")
	}
	k := key{pkg: e.Package, test: topLevel(e.Test)}
	switch e.Action {
	case "start":
		r.current[k] = nil
	case "run":
		if e.Test == k.test {
			r.current[k] = nil
			r.tally(k).runs++
		}
	case "output", "build-output":
		r.current[k] = append(r.current[k], e.Output)
	case "fail", "build-fail":
		if e.Test != "" && e.Test != k.test {
			return // its top-level test fails too, with this output in its own
		}
		if e.Test == "" && r.failedIn(e.Package) {
			return // the package fails because a test, or its build, did
		}
		t := r.tally(k)
		t.failures = append(t.failures, strings.Join(r.current[k], ""))
		if e.Test == "" {
			t.runs++
		}
	}
}

func (r *report) tally(k key) *tally {
	t := r.tests[k]
	if t == nil {
		t = &tally{}
		r.tests[k] = t
	}
	return t
}

// failedIn tells whether a test of the package, or its build, has failed,
// so that the package's own failure adds nothing to it.
func (r *report) failedIn(pkg string) bool {
	for k, t := range r.tests {
		if k.pkg == pkg && len(t.failures) > 0 {
			return true
		}
	}
	return false
}

// topLevel is the test a subtest belongs to.
func topLevel(test string) string {
	top, _, _ := strings.Cut(test, "/")
	return top
}

// failed is every test that failed at least once, by package and name.
func (r *report) failed() []key {
	var keys []key
	for k, t := range r.tests {
		if len(t.failures) > 0 {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].pkg != keys[j].pkg {
			return keys[i].pkg < keys[j].pkg
		}
		return keys[i].test < keys[j].test
	})
	return keys
}

// maxLines is how much of a failure's output is printed: its end, where
// the failing assertion and the FAIL line are; maxLine how much of each
// line.
const (
	maxLines = 60
	maxLine  = 400
)

// print writes each failed test with how often it failed and the output of
// its first failure, without go test's === progress lines.
func (r *report) print(w io.Writer) {
	for _, k := range r.failed() {
		t := r.tests[k]
		name := k.test
		if name == "" {
			name = "(the package itself)"
		}
		fmt.Fprintf(w, "--- %s %s: failed %d of %d runs\n", k.pkg, name, len(t.failures), max(t.runs, len(t.failures)))
		for _, line := range excerpt(t.failures[0]) {
			line = strings.TrimRight(line, "\n")
			if len(line) > maxLine {
				line = line[:maxLine] + fmt.Sprintf(" … (%d bytes more)", len(line)-maxLine)
			}
			fmt.Fprint(w, "    ", line, "\n")
		}
	}
}

// excerpt is the part of a failure's output that says why: from a panic
// (a timeout names the tests still running just after it, before the
// goroutines' stacks) its first lines, otherwise the last lines, without
// go test's === progress lines.
func excerpt(output string) []string {
	var lines []string
	for _, line := range strings.SplitAfter(output, "\n") {
		if line != "" && !strings.HasPrefix(strings.TrimSpace(line), "=== ") {
			lines = append(lines, line)
		}
	}
	for i, line := range lines {
		if strings.HasPrefix(line, "panic: ") {
			return lines[i:min(len(lines), i+maxLines/3)]
		}
	}
	if len(lines) > maxLines {
		skipped := fmt.Sprintf("(%d lines before)\n", len(lines)-maxLines)
		lines = append([]string{skipped}, lines[len(lines)-maxLines:]...)
	}
	return lines
}

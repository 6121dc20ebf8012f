package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMan: zklocks man prints zklocks(1) from the commands themselves,
// dated by $SOURCE_DATE_EPOCH, naming every command's own page; --dir
// writes those pages.
func TestMan(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1764000000")
	out, errOut, code := run(t, "man")
	if code != exitOK {
		t.Fatalf("man exited %d: %s", code, errOut)
	}
	for _, want := range []string{`.TH "ZKLOCKS" "1" "Nov 2025" "zklocks test" "zklocks manual"`, ".SH NAME", ".SH OPTIONS",
		"Inspect and operate live ZooKeeper lock trees", "--read-only", "64  bad flags or arguments"} {
		if !strings.Contains(out, want) {
			t.Errorf("the page lacks %q:\n%s", want, out)
		}
	}
	root := newRootCommand("test")
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() && !strings.Contains(out, "zklocks-"+c.Name()+"(1)") {
			t.Errorf("SEE ALSO does not name zklocks-%s(1)", c.Name())
		}
	}
	if strings.ContainsRune(out, '\x1b') {
		t.Error("the page carries an escape sequence")
	}

	dir := t.TempDir()
	if _, errOut, code := run(t, "man", "--dir", dir); code != exitOK {
		t.Fatalf("man --dir exited %d: %s", code, errOut)
	}
	page, err := os.ReadFile(filepath.Join(dir, "zklocks-show.1"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `.TH "ZKLOCKS" "1"`) || !strings.Contains(string(page), "--json") {
		t.Errorf("zklocks-show.1:\n%s", page)
	}
	if _, err := os.Stat(filepath.Join(dir, "zklocks.1")); err != nil {
		t.Error(err)
	}
}

func TestManBadSourceDateEpoch(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "yesterday")
	if _, errOut, code := run(t, "man"); code != exitFailed || !strings.Contains(errOut, "SOURCE_DATE_EPOCH") {
		t.Errorf("exit %d, stderr %q; want %d naming SOURCE_DATE_EPOCH", code, errOut, exitFailed)
	}
}

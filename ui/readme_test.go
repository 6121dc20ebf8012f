package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeScreen finds each screen README.md shows: a fenced block between a
// marker naming its golden file (relative to the repository's root) and an
// end marker. Group 1 is the golden's path, group 2 the block's lines.
var readmeScreen = regexp.MustCompile("(?s)<!-- golden: (\\S+) -->\n```text\n(.*?)```\n<!-- end golden -->")

// TestGoldenReadmeScreen keeps the screens README.md shows equal to their
// golden files, so that a newcomer's first look at the UI is what the UI
// draws today. README carries a golden's lines without their trailing
// blanks. -update copies each golden into README.md as it stands when this
// test runs: go test runs a package's files in name order, so the golden
// tests of golden_test.go have rewritten theirs by then.
func TestGoldenReadmeScreen(t *testing.T) {
	readmePath := filepath.Join("..", "README.md")
	raw, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	blocks := readmeScreen.FindAllStringSubmatchIndex(readme, -1)
	if len(blocks) == 0 {
		t.Fatalf("README.md shows no screen: no block between <!-- golden: ui/testdata/NAME.golden --> and <!-- end golden -->")
	}
	// Replace from the last block back, so the earlier blocks' offsets hold.
	updated := readme
	for i := len(blocks) - 1; i >= 0; i-- {
		b := blocks[i]
		name, shown := readme[b[2]:b[3]], readme[b[4]:b[5]]
		golden, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(name)))
		if err != nil {
			t.Fatalf("README.md shows %s: %v", name, err)
		}
		want := readmeText(string(golden))
		if *update {
			updated = updated[:b[4]] + want + updated[b[5]:]
			continue
		}
		if d := lineDiff(shown, want); d != "" {
			t.Errorf("README.md's screen differs from %s (go test ./ui -run GoldenReadmeScreen -update copies it):\n%s", name, d)
		}
	}
	if *update && updated != readme {
		if err := os.WriteFile(readmePath, []byte(updated), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// readmeText is a golden screen as README.md carries it: each line without
// its trailing blanks, each ended by a newline.
func readmeText(golden string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(golden, "\n"), "\n") {
		b.WriteString(strings.TrimRight(line, " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// lineDiff lists the lines where got and want differ, by line number, or
// returns "" when they are equal.
func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var b strings.Builder
	line := func(lines []string, i int) string {
		if i >= len(lines) {
			return "(none)"
		}
		return fmt.Sprintf("%q", lines[i])
	}
	for i := 0; i < max(len(g), len(w)); i++ {
		if gl, wl := line(g, i), line(w, i); gl != wl {
			fmt.Fprintf(&b, "line %d\n  README: %s\n  golden: %s\n", i+1, gl, wl)
		}
	}
	return b.String()
}

// TestLineDiff checks that lineDiff names the line that changed and a line
// one side lacks, and says nothing of equal texts.
func TestLineDiff(t *testing.T) {
	if d := lineDiff("a\nb\n", "a\nb\n"); d != "" {
		t.Errorf("equal texts: %q", d)
	}
	if d := lineDiff("a\nx\n", "a\nb\n"); !strings.Contains(d, "line 2\n") || strings.Contains(d, "line 1\n") {
		t.Errorf("a changed second line: %q", d)
	}
	if d := lineDiff("a\n", "a\nb\n"); !strings.Contains(d, "line 2\n") {
		t.Errorf("a missing second line: %q", d)
	}
}

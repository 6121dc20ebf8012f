package lockcore

import (
	"fmt"
	"testing"
)

// benchEntries are n entries as teams write them, for their own paths.
func benchEntries(n int) []Entry {
	var out []Entry
	for i := range n {
		e := Entry{Name: fmt.Sprintf("team%02d", i), Paths: []string{fmt.Sprintf("/team%02d/locks/*", i)},
			Children: "{owner}~{mode}~{seq}", Modes: map[string]Mode{"rd": ModeRead, "wr": ModeWrite}, Grant: GrantReadWrite}
		if i%2 == 1 {
			e.Paths = []string{fmt.Sprintf("/**/team%02d/locks/*", i)}
		}
		out = append(out, e)
	}
	return out
}

// BenchmarkBookOnAnotherLock is what 50 of the user's entries cost each
// analysis and discovery check of a lock none of them describes.
func BenchmarkBookOnAnotherLock(b *testing.B) {
	book, err := NewBook(benchEntries(50))
	if err != nil {
		b.Fatal(err)
	}
	names := []string{"_c_0f0e0d0c0b0a49088706050403020100-lock-0000000001", "_c_0f0e0d0c0b0a49088706050403020101-lock-0000000002"}
	b.ReportAllocs()
	for b.Loop() {
		if c, _ := book.Classify("/bench/p01234", Node{}, names); c != IsALock {
			b.Fatal(c)
		}
	}
}

package words

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// watchTables makes the same watch table as wchc text and as the
// AdminServer's watches JSON: sessions × paths each.
func watchTables(sessions, paths int) (text, jsonText string) {
	var t, j strings.Builder
	j.WriteString(`{"session_id_to_watched_paths":{`)
	for s := range sessions {
		id := int64(72057618466668544) + int64(s)
		fmt.Fprintf(&t, "0x%x\n", id)
		if s > 0 {
			j.WriteString(",")
		}
		fmt.Fprintf(&j, `"%d":[`, id)
		for p := range paths {
			fmt.Fprintf(&t, "\t/app/locks/lock-%06d/_c_%d-lock-%010d\n", s, p, p)
			if p > 0 {
				j.WriteString(",")
			}
			fmt.Fprintf(&j, `"/app/locks/lock-%06d/_c_%d-lock-%010d"`, s, p, p)
		}
		j.WriteString("]")
	}
	j.WriteString(`},"command":"watches","error":null}`)
	return t.String(), j.String()
}

// BenchmarkWatchTableParse reads a 100,000-watch table both ways.
func BenchmarkWatchTableParse(b *testing.B) {
	text, jsonText := watchTables(50_000, 2)
	b.Run("wchc", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if _, err := ParseWatchStream("wchc", bufio.NewReader(strings.NewReader(text)), nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("admin watches", func(b *testing.B) {
		b.SetBytes(int64(len(jsonText)))
		for b.Loop() {
			table := map[int64][]string{}
			if _, err := readAdminAnswer(strings.NewReader(jsonText), AdminWatchTable(table, nil)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("admin skipped", func(b *testing.B) {
		b.SetBytes(int64(len(jsonText)))
		for b.Loop() {
			if _, err := readAdminAnswer(strings.NewReader(jsonText), func(string, *json.Decoder) (bool, error) { return false, nil }); err != nil {
				b.Fatal(err)
			}
		}
	})
}

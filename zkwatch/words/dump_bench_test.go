package words

import (
	"bufio"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkParseDump: a dump of the ephemeral nodes bench-scale's cluster
// holds (10,000 locks × 6 Curator contenders, six sessions, and 2,000
// service registrations of one more), read as discovery reads it again
// after its first sync: parents counted, no owners.
func BenchmarkParseDump(b *testing.B) {
	var d strings.Builder
	d.WriteString("SessionTracker dump:\nSession Sets (3)/(7):\nephemeral nodes dump:\nSessions with Ephemerals (7):\n")
	for s := range 6 {
		fmt.Fprintf(&d, "0x10000851afd%04x:\n", s+1)
		for l := range 10000 {
			fmt.Fprintf(&d, "\t/app/locks/group-%03d/lock-%05d/_c_%08x-1234-5678-9abc-def012345678-lock-%010d\n", l/100, l, l*6+s, s)
		}
	}
	d.WriteString("0x10000851afd0007:\n")
	for i := range 2000 {
		fmt.Fprintf(&d, "\t/services/svc-%03d/instance-%05d\n", i/10, i)
	}
	d.WriteString("Connections dump:\nConnections Sets (2)/(8):\n")
	dump := d.String()
	keep := func(p string) bool { return strings.HasPrefix(p, "/app/") || strings.HasPrefix(p, "/services/") }
	b.SetBytes(int64(len(dump)))
	b.ReportAllocs()
	for range b.N {
		e, err := ParseDump(bufio.NewReader(strings.NewReader(dump)), keep, nil, nil)
		if err != nil || e.Nodes != 62000 || len(e.Parents) != 10200 {
			b.Fatalf("%d nodes under %d parents, %v", e.Nodes, len(e.Parents), err)
		}
	}
}

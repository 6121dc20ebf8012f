package lockcore

import (
	"net"
	"unicode/utf8"
)

// Curator's LeaderLatch writes its id (empty by default) into each of its
// nodes, and LeaderSelector, a mutex underneath, its id when one is set;
// every other Curator node holds the client's local address by default.
// The participant's identity is that text, when it is text.
func analyzeCuratorIDs(l *Lock) {
	for i := range l.Participants {
		p := &l.Participants[i]
		if p.DataDenied || len(p.Data) == 0 || p.DataTruncated || !utf8.Valid(p.Data) || string(p.Data) == RevokeRequest {
			continue
		}
		text := string(p.Data)
		if !printableText(text) {
			continue
		}
		switch {
		case net.ParseIP(text) != nil:
			// Curator's default data, the client's address: the data
			// column says it already.
		case p.Recipe == RecipeCuratorLeaderLatch:
			p.Identity = "participant " + text
		default:
			p.Identity = "participant " + text + " (a LeaderSelector id, or data its client set)"
		}
	}
}

func printableText(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return false
		}
	}
	return s != ""
}

// readCurator names a Curator election's or mutex's participants by their
// ids, and the application that keeps it (Druid, Spark, NiFi, Aurora).
func readCurator(l *Lock, t Tree) {
	analyzeCuratorIDs(l)
	analyzeCuratorApp(l)
	analyzeAurora(l, t)
}

// curatorReadsOwnWrite: a Curator reader whose own session holds the first
// write, at the head of the queue, is the write holder taking the read
// lock too, which Curator grants at once.
func curatorReadsOwnWrite(read, firstWrite *entry) (string, bool) {
	if read.node.Ephemeral() && firstWrite.node.Stat.EphemeralOwner == read.node.Stat.EphemeralOwner {
		return "granted at once: its session holds the write lock, and Curator lets the write holder take the read lock", true
	}
	return "", false
}

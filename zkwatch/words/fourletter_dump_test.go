package words

import (
	"bufio"
	"maps"
	"strings"
	"testing"
)

func TestParseDumpOwners(t *testing.T) {
	dump := "SessionTracker dump:\nSession Sets (1)/(1):\n" +
		"ephemeral nodes dump:\nSessions with Ephemerals (2):\n" +
		"0x100008b69500000:\n\t/locks/a/_c_1f0e5c5e-3b1a-4c43-9d0b-0c3f7a1d2e4f-lock-0000000001\n\t/services/web-1\n" +
		"0xff00008b69500001:\n\t/locks/a/_c_2f0e5c5e-3b1a-4c43-9d0b-0c3f7a1d2e4f-lock-0000000002\n\t/other/b/lock-0000000000\n" +
		"Connections dump:\n"
	keep := func(p string) bool { return !strings.HasPrefix(p, "/other/") }
	contender := func(name string) bool { return strings.HasPrefix(name, "_c_") }
	e, err := ParseDump(bufio.NewReader(strings.NewReader(dump)), keep, map[string]int64{}, contender)
	if err != nil {
		t.Fatal(err)
	}
	high := uint64(0xff00008b69500001) // a session id past int64's range, as the server's signed long
	want := map[string]int64{
		"/locks/a/_c_1f0e5c5e-3b1a-4c43-9d0b-0c3f7a1d2e4f-lock-0000000001": 0x100008b69500000,
		"/locks/a/_c_2f0e5c5e-3b1a-4c43-9d0b-0c3f7a1d2e4f-lock-0000000002": int64(high),
	}
	if !maps.Equal(e.Owners, want) {
		t.Errorf("owners %v, want %v (a service registration is no contender, /other is not kept)", e.Owners, want)
	}
	if e.Nodes != 4 || e.Sessions != 2 || e.Parents["/locks/a"].Count != 2 {
		t.Errorf("ephemerals %+v", e)
	}
	if e, err := ParseDump(bufio.NewReader(strings.NewReader(dump)), keep, nil, contender); err != nil || e.Owners != nil {
		t.Errorf("without owners asked: %v, %v", e.Owners, err)
	}
	if _, err := ParseDump(bufio.NewReader(strings.NewReader("ephemeral nodes dump:\nSessions with Ephemerals (1):\n0xzz:\n")), keep, nil, contender); err == nil {
		t.Error("a session line that is no hex number was accepted")
	}
}

func TestParseDumpNodeAtTheRoot(t *testing.T) {
	dump := "ephemeral nodes dump:\nSessions with Ephemerals (1):\n0x1:\n\t/lock-0000000001\n"
	e, err := ParseDump(bufio.NewReader(strings.NewReader(dump)), func(string) bool { return true }, map[string]int64{}, func(string) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	if ep := e.Parents["/"]; ep.Count != 1 || ep.Sample != "lock-0000000001" || e.Owners["/lock-0000000001"] != 1 {
		t.Errorf("parents %+v, owners %v: want / holding lock-0000000001 of session 0x1", e.Parents, e.Owners)
	}
}

func TestParentAndName(t *testing.T) {
	for p, want := range map[string][2]string{"/a": {"/", "a"}, "/a/b": {"/a", "b"}, "/a/b/c": {"/a/b", "c"}} {
		if dir, name := parentAndName(p); dir != want[0] || name != want[1] {
			t.Errorf("parentAndName(%q) = %q, %q, want %q, %q", p, dir, name, want[0], want[1])
		}
	}
}

// TestParseDumpLongLines: a node path longer than the reader's buffer is
// read whole, and the lines after it as well.
func TestParseDumpLongLines(t *testing.T) {
	long := "/deep/" + strings.Repeat("d", 5000)
	dump := "ephemeral nodes dump:\nSessions with Ephemerals (1):\n0x1:\n\t" + long + "/lock-0000000001\n\t/locks/b/lock-0000000002\r\n"
	e, err := ParseDump(bufio.NewReaderSize(strings.NewReader(dump), 64), func(string) bool { return true }, map[string]int64{}, func(string) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	if e.Nodes != 2 || e.Parents[long].Count != 1 || e.Parents["/locks/b"].Sample != "lock-0000000002" || e.Owners[long+"/lock-0000000001"] != 1 {
		t.Errorf("%d nodes, parents %d, owners %d: want both nodes, the long one's parent and owner whole", e.Nodes, len(e.Parents), len(e.Owners))
	}
}

// TestParseDumpAsksKeepOnceADirectory: keep is asked of each directory
// once, however many nodes it holds.
func TestParseDumpAsksKeepOnceADirectory(t *testing.T) {
	dump := "ephemeral nodes dump:\nSessions with Ephemerals (2):\n0x1:\n\t/locks/a/n-1\n\t/locks/b/n-1\n0x2:\n\t/locks/a/n-2\n\t/locks/b/n-2\n"
	asked := map[string]int{}
	e, err := ParseDump(bufio.NewReader(strings.NewReader(dump)), func(dir string) bool { asked[dir]++; return dir == "/locks/a" }, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(asked, map[string]int{"/locks/a": 1, "/locks/b": 1}) || e.Nodes != 4 || len(e.Parents) != 1 || e.Parents["/locks/a"].Count != 2 {
		t.Errorf("keep asked %v; %d nodes, parents %v", asked, e.Nodes, e.Parents)
	}
}

package lockcore

import (
	"fmt"
	"testing"
)

func TestParseName(t *testing.T) {
	tests := []struct {
		name, in string
		kind     NameKind
		prefix   string
		seq      int64
		hasSeq   bool
		session  int64
	}{
		{"curator mutex", "_c_f2f6b74b-d857-43b1-a984-39c874c42dda-lock-0000000000", KindCuratorLock, "f2f6b74b-d857-43b1-a984-39c874c42dda", 0, true, 0},
		{"curator read", "_c_dc477b41-8e38-44cc-8524-fcbba293f6a1-__READ__0000000001", KindCuratorRead, "dc477b41-8e38-44cc-8524-fcbba293f6a1", 1, true, 0},
		{"curator write", "_c_81b8860f-ffff-4821-9345-940c0e93595b-__WRIT__0000000002", KindCuratorWrite, "81b8860f-ffff-4821-9345-940c0e93595b", 2, true, 0},
		{"curator lease", "_c_81b8860f-ffff-4821-9345-940c0e93595b-lease-0000000007", KindCuratorLease, "81b8860f-ffff-4821-9345-940c0e93595b", 7, true, 0},
		{"curator latch", "_c_81b8860f-ffff-4821-9345-940c0e93595b-latch-0000000003", KindCuratorLatch, "81b8860f-ffff-4821-9345-940c0e93595b", 3, true, 0},
		{"curator other", "_c_81b8860f-ffff-4821-9345-940c0e93595b-queue-0000000003", KindCuratorOther, "81b8860f-ffff-4821-9345-940c0e93595b", 3, true, 0},
		{"kazoo lease ending in ten digits", "2919430ac0ad4b83bffcfa7252412345", KindKazooLease, "2919430ac0ad4b83bffcfa7252412345", 0, false, 0},
		{"zk election", "n_0000000012", KindZKElection, "", 12, true, 0},
		{"zk election wrapped", "n_-2147483648", KindZKElection, "", -2147483648, true, 0},
		{"gozk lock", "_c_9f0c1e2d3c4b5a69788796a5b4c3d2e1-lock-0000000004", KindGoZKLock, "9f0c1e2d3c4b5a69788796a5b4c3d2e1", 4, true, 0},
		{"kazoo lock", "02418b7a962543b5a1cefd00cda3048e__lock__0000000000", KindKazooLock, "02418b7a962543b5a1cefd00cda3048e", 0, true, 0},
		{"kazoo read", "6c5a59af219c4e7eb1ed4159d11209d3__rlock__0000000012", KindKazooRead, "6c5a59af219c4e7eb1ed4159d11209d3", 12, true, 0},
		{"kazoo lease", "6c5a59af219c4e7eb1ed4159d11209d3", KindKazooLease, "6c5a59af219c4e7eb1ed4159d11209d3", 0, false, 0},
		// Seen on a real kazoo Semaphore: the hex ends in ten digits.
		{"kazoo lease ending in digits", "dc5f4ec9299641deaa35709612198573", KindKazooLease, "dc5f4ec9299641deaa35709612198573", 0, false, 0},
		{"zk writelock", "x-72057608680570883-0000000000", KindZKWriteLock, "72057608680570883", 0, true, 72057608680570883},
		{"host read", "host1-R-0000000001", KindHostRead, "host1", 1, true, 0},
		{"host write with dashes", "web-01.example-W-0000000002", KindHostWrite, "web-01.example", 2, true, 0},
		{"session lock decimal", "lock-72057608680570883-0000000005", KindSessionLock, "72057608680570883", 5, true, 72057608680570883},
		{"session lock hex", "lock-0x100000368c50008-0000000005", KindSessionLock, "0x100000368c50008", 5, true, 0x100000368c50008},
		{"generic sequential", "job-0000000042", KindSequential, "job", 42, true, 0},
		{"bare sequence", "0000000042", KindSequential, "", 42, true, 0},
		{"wrapped counter", "_c_f2f6b74b-d857-43b1-a984-39c874c42dda-lock--2147483648", KindCuratorLock, "f2f6b74b-d857-43b1-a984-39c874c42dda", -2147483648, true, 0},
		{"wrapped short", "abc__lock__-000000005", KindKazooLock, "abc", -5, true, 0},
		{"plain name", "resource", KindUnparsed, "", 0, false, 0},
		{"too short a sequence", "lock-000001", KindUnparsed, "", 0, false, 0},
		{"protected without guid", "_c_nope-lock-0000000001", KindUnparsed, "", 1, true, 0},
		{"empty", "", KindUnparsed, "", 0, false, 0},
		{"unicode host", "hôte-R-0000000003", KindHostRead, "hôte", 3, true, 0},
		{"escape sequence", "\x1b[31mred-0000000001", KindSequential, "\x1b[31mred", 1, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := ParseName(tt.in)
			if n.Kind != tt.kind || n.HasSeq != tt.hasSeq || n.Seq != tt.seq || n.Session != tt.session {
				t.Fatalf("ParseName(%q) = kind %s seq %d (has %v) session %d; want kind %s seq %d (has %v) session %d",
					tt.in, n.Kind, n.Seq, n.HasSeq, n.Session, tt.kind, tt.seq, tt.hasSeq, tt.session)
			}
			if tt.kind != KindUnparsed && n.Prefix != tt.prefix {
				t.Fatalf("ParseName(%q).Prefix = %q, want %q", tt.in, n.Prefix, tt.prefix)
			}
		})
	}
}

func ExampleParseName() {
	n := ParseName("_c_dc477b41-8e38-44cc-8524-fcbba293f6a1-__READ__0000000001")
	fmt.Println(n.Kind, n.Seq)
	n = ParseName("x-72057608680570883-0000000000")
	fmt.Println(n.Kind, SessionHex(n.Session))
	// Output:
	// curator-read 1
	// zk-writelock 0x100000368c50003
}

func FuzzParseName(f *testing.F) {
	for _, s := range []string{
		"_c_f2f6b74b-d857-43b1-a984-39c874c42dda-lock-0000000000",
		"02418b7a962543b5a1cefd00cda3048e__lock__0000000000",
		"x-72057608680570883-0000000000", "host1-R-0000000001",
		"lock-0x1-0000000001", "--0000000001", "_c_-", "__lock__-2147483648",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := ParseName(s)
		if n.Raw != s {
			t.Fatalf("Raw = %q, want %q", n.Raw, s)
		}
		if n.HasSeq && !hasSuffix(s, n.SeqText) {
			t.Fatalf("SeqText %q is not a suffix of %q", n.SeqText, s)
		}
		if !n.HasSeq && isContender(n.Kind) && n.Kind != KindKazooLease {
			t.Fatalf("%q: contender kind %s without a sequence", s, n.Kind)
		}
	})
}

func hasSuffix(s, suffix string) bool {
	return len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix
}

package txnlog

import (
	"context"
	"strings"
	"testing"
)

func TestMembersFillEachOthersGapsAndDisagreementsAreSaid(t *testing.T) {
	full, gap, differs := fixture(t), fixture(t), fixture(t)
	offs := recordOffsets(t, v2(gap, "log.1"))
	// The second member was down for log.1's last five transactions.
	rewrite(t, v2(gap, "log.1"), func(b []byte) []byte { return b[:offs[len(offs)-6]] })
	// The third holds one transaction with other bytes (its checksum
	// right for them).
	at := recordOffsets(t, v2(differs, "log.20"))[2]
	rewrite(t, v2(differs, "log.20"), func(b []byte) []byte {
		b[at+12+8] ^= 0x01 // the cxid
		reseal(b, at)
		return b
	})
	alone, err := Load(context.Background(), []string{gap}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(alone.Partial) != 1 || !strings.Contains(alone.Partial[0], "no log holds zxids 0x1b to 0x1f") {
		t.Errorf("the member alone: partial %q", alone.Partial)
	}
	res, err := loadUntouched(t, []string{full, gap, differs}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Partial) > 0 {
		t.Errorf("partial %q: the others fill the gap", res.Partial)
	}
	notes := strings.Join(res.Members, "\n")
	if !strings.Contains(notes, gap+" lacks zxids 0x1b to 0x1f") {
		t.Errorf("the gap is not said: %q", res.Members)
	}
	if !strings.Contains(notes, "differs in "+differs) {
		t.Errorf("the disagreement is not said: %q", res.Members)
	}
	for lock, want := range map[string]string{"/locks/killed": "expired", "/locks/forced": "forced"} {
		if got := endOf(t, res, lock); got != want {
			t.Errorf("%s ended %q, want %q", lock, got, want)
		}
	}
}

// A member that holds a run of transactions with other bytes (a data
// directory of another ensemble, given by mistake, differs in every one)
// is said once for the run, not once a transaction.
func TestMemberDifferingInARunIsSaidOnce(t *testing.T) {
	full, other := fixture(t), fixture(t)
	offs := recordOffsets(t, v2(other, "log.20"))
	rewrite(t, v2(other, "log.20"), func(b []byte) []byte {
		for _, at := range offs[:len(offs)-1] {
			b[at+12+8] ^= 0x01 // the cxid
			reseal(b, at)
		}
		return b
	})
	res, err := loadUntouched(t, []string{full, other}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	for _, n := range res.Members {
		if strings.Contains(n, "differ") {
			said = append(said, n)
		}
	}
	if len(said) != 1 || !strings.Contains(said[0], "zxids 0x20 to ") || !strings.Contains(said[0], "differ in "+other+" from the other members' copy") {
		t.Errorf("a run of %d differing transactions said as %q", len(offs)-1, said)
	}
}

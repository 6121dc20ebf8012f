package lockcore

import (
	"strconv"
	"strings"
)

// NameKind is what a child's name says about the client that wrote it.
type NameKind string

// The name kinds ParseName recognises.
const (
	KindCuratorLock  NameKind = "curator-lock"  // _c_<uuid>-lock-<seq>
	KindCuratorRead  NameKind = "curator-read"  // _c_<uuid>-__READ__<seq>
	KindCuratorWrite NameKind = "curator-write" // _c_<uuid>-__WRIT__<seq>
	KindCuratorLease NameKind = "curator-lease" // _c_<uuid>-lease-<seq>
	KindCuratorLatch NameKind = "curator-latch" // _c_<uuid>-latch-<seq>: a LeaderLatch
	KindCuratorOther NameKind = "curator-other" // _c_<uuid>-<name><seq> of another recipe
	KindGoZKLock     NameKind = "gozk-lock"     // _c_<32 hex>-lock-<seq>
	KindKazooLock    NameKind = "kazoo-lock"    // <id>__lock__<seq>
	KindKazooRead    NameKind = "kazoo-read"    // <id>__rlock__<seq>
	KindKazooLease   NameKind = "kazoo-lease"   // <32 hex>, not sequential
	KindZKWriteLock  NameKind = "zk-writelock"  // x-<session decimal>-<seq>
	KindZKElection   NameKind = "zk-election"   // n_<seq>: ZooKeeper's LeaderElectionSupport
	KindHostRead     NameKind = "host-read"     // <host>-R-<seq>
	KindHostWrite    NameKind = "host-write"    // <host>-W-<seq>
	KindSessionLock  NameKind = "session-lock"  // lock-<session>-<seq>
	KindSequential   NameKind = "sequential"    // anything else ending in a sequence
	KindUnparsed     NameKind = "unparsed"
)

// SeqDigits is the width of a sequence suffix: ZooKeeper formats the
// parent's counter as %010d, so a negative one (after the signed 32-bit
// counter wraps) takes eleven characters including its sign.
const SeqDigits = 10

// Name is a parsed contender name.
type Name struct {
	Raw  string
	Kind NameKind
	// Prefix is the client's identifying part: a Curator or go-zookeeper
	// GUID, a kazoo identifier, a host name, or the session text.
	Prefix string
	// SeqText is the sequence suffix as written; Seq its value.
	SeqText string
	Seq     int64
	HasSeq  bool
	// Session is a session id embedded in the name (ZooKeeper's WriteLock
	// and the session-tagged shape); HasSession says whether there was one.
	Session    int64
	HasSession bool
}

const curatorPrefix = "_c_"

// ParseName classifies one child name. It never fails: a name that matches
// nothing is KindUnparsed, one that only ends in a sequence is
// KindSequential.
//
// A name is read by the built-in rule book: the first built-in entry whose
// pattern reads it says its kind (its hooks' kinds), and an application's
// names hook reads the names its entry's pattern cannot state. What no
// entry reads is the fallback's: a name in Curator's protected form
// (_c_<id>-…) of a recipe no entry names, or one that merely ends in a
// ZooKeeper sequence.
func ParseName(name string) Name {
	if n, ok := builtinBook().readName(name); ok {
		return n
	}
	n := Name{Raw: name, Kind: KindUnparsed}
	body, seqText, ok := splitSeq(name)
	if ok {
		n.SeqText = seqText
		n.Seq, _ = strconv.ParseInt(seqText, 10, 64)
		n.HasSeq = true
	}
	switch {
	case strings.HasPrefix(name, curatorPrefix):
		// Curator's protected mode prefixes any recipe's names; one of a
		// recipe no entry reads is still Curator's, never another's.
		if id, _, found := cutGUID(body[len(curatorPrefix):]); found && ok {
			n.Kind, n.Prefix = KindCuratorOther, id
		}
	case ok && appNamed(&n, body):
	case ok:
		n.Kind, n.Prefix = KindSequential, strings.TrimSuffix(body, "-")
	}
	return n
}

// parseNames is ParseName of each of names, in their order.
func parseNames(names []string) []Name {
	out := make([]Name, len(names))
	for i, n := range names {
		out[i] = ParseName(n)
	}
	return out
}

// cutGUID splits "<uuid>-rest" or "<32 hex>-rest".
func cutGUID(s string) (id, rest string, ok bool) {
	if len(s) > 37 && uuidAt(s) && s[36] == '-' {
		return s[:36], s[37:], true
	}
	if len(s) > 33 && isHex(s[:32], 32) && s[32] == '-' {
		return s[:32], s[33:], true
	}
	return "", "", false
}

// parseSessionText reads a session id written in decimal, or in hex with or
// without 0x. Digits alone are read as decimal.
func parseSessionText(s string) (int64, bool) {
	if t, ok := strings.CutPrefix(strings.ToLower(s), "0x"); ok {
		v, err := strconv.ParseUint(t, 16, 64)
		return int64(v), err == nil
	}
	if isDecimal(s) {
		v, err := strconv.ParseUint(s, 10, 64)
		return int64(v), err == nil
	}
	if isHex(s, len(s)) && len(s) <= 16 {
		v, err := strconv.ParseUint(s, 16, 64)
		return int64(v), err == nil
	}
	return 0, false
}

// splitSeq splits a name ending in a ZooKeeper sequence suffix. The suffix
// is the parent's signed 32-bit counter formatted %010d: ten digits, or, once
// the counter has wrapped, a minus sign and nine or ten digits. A minus sign
// counts as the suffix's sign only when a separator ('-' or '_') stands
// before it, as in "lock--2147483648" or "__lock__-2147483648".
func splitSeq(name string) (body, seq string, ok bool) {
	n := len(name)
	signed := func(digits int) bool {
		at := n - digits - 1
		return at >= 1 && name[at] == '-' && (name[at-1] == '-' || name[at-1] == '_') &&
			isDecimal(name[at+1:])
	}
	switch {
	case n > SeqDigits+1 && signed(SeqDigits):
		return name[:n-SeqDigits-1], name[n-SeqDigits-1:], true
	case n > SeqDigits && !isDecimal(name[n-SeqDigits:]) && signed(SeqDigits-1):
		return name[:n-SeqDigits], name[n-SeqDigits:], true
	case n >= SeqDigits && isDecimal(name[n-SeqDigits:]):
		return name[:n-SeqDigits], name[n-SeqDigits:], true
	}
	return name, "", false
}

func isDecimal(s string) bool { return s != "" && allDigitBytes(s) }

func isHex(s string, n int) bool {
	return n > 0 && len(s) == n && byteRun(s, hexByte) == n
}

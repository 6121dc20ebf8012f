package lockcore

import (
	"strconv"
	"strings"
	"time"
)

// ActionKind names an operator's write to another client's contender,
// or zklocks' own lock client giving back a lock it held (ActionRelease).
type ActionKind string

// The operator's actions: the writes to nodes zklocks does not own, each
// audited whether it went through or not. Taking and giving back our own
// lock is not among them: it writes only our own nodes.
const (
	// ActionForceRelease deleted the contender's node (ForceDelete).
	ActionForceRelease ActionKind = "force-release"
	// ActionFence deleted the node with others in one transaction (Fence).
	ActionFence ActionKind = "fence"
	// ActionRevoke asked the holder to release (Revoke); the node stays
	// until its client lets go.
	ActionRevoke ActionKind = "revoke"
)

// ActionRelease is no operator's write: zklocks' own lock client (the
// operator's acquire, the demo's contenders) deleted its own node, as the
// server's reply to its delete confirmed. It travels the event stream
// beside the operator's actions so that the hold it ended is told
// released by its owner, where a watch alone cannot tell that from a
// force-release by another client; it is never audited.
const ActionRelease ActionKind = "release"

// Deletes reports whether the action, when it went through, deleted the
// node acted on, so that its contender's client was not told.
func (k ActionKind) Deletes() bool { return k == ActionForceRelease || k == ActionFence }

// Action is one of the operator's writes to a contender, who made it and
// how it went: what the audit log writes as a line, what the event log
// says ended a hold, what a recording keeps so that a replay shows it. It
// holds no credentials by construction.
type Action struct {
	At   time.Time
	Kind ActionKind
	// Node is the path of the contender's node acted on, Token its czxid
	// (the fencing token) and Owner the session that owned it (0 when
	// not known).
	Node  string
	Token int64
	Owner int64
	// Failed says why the action did not go through; empty when it did.
	Failed string
	// User is the operating-system user who acted, or under zklocks
	// serve the SSH user; Host the machine acted from (under serve, the
	// address the user connected from); Via where in zklocks ("ui",
	// "cli", "ssh"); Key, under serve, the fingerprint of the SSH key the
	// user signed in with.
	User, Host, Via, Key string
	// Cert, under serve when the user signed in with an SSH certificate,
	// is who the certificate says they are; nil otherwise.
	Cert *Certificate
	// ApprovedBy, when a second person's approval was required (the
	// two-person rule of zklocks serve), is who approved the action that
	// User requested; nil otherwise.
	ApprovedBy *Operator
	// Recording, under zklocks serve when it records sessions, is where
	// in the acting session's recording the action was confirmed; nil
	// otherwise.
	Recording *RecordingMark
	// Server is the connect string acted on, Session the session that
	// acted (0 when not known).
	Server  string
	Session int64
}

// Certificate is an SSH user certificate's word on who signed in with
// it: the key id and serial its authority signed, and the principal
// that admitted it. Key is then the fingerprint of the certificate's key.
type Certificate struct {
	KeyID     string
	Serial    uint64
	Principal string
}

// Operator is who signed in to act: the user, where from, the
// fingerprint of their SSH key and, when they signed in with one, their
// certificate.
type Operator struct {
	User, Host, Key string
	Cert            *Certificate
}

// RecordingMark is a moment of a session recording: its file, and the
// offset into it (the time of the key that confirmed the action).
type RecordingMark struct {
	File   string
	Offset time.Duration
}

// Done reports whether the action went through.
func (a Action) Done() bool { return a.Failed == "" }

// resultOK is a done action's Result; failedPrefix begins a failed one's.
const (
	resultOK     = "ok"
	failedPrefix = "failed: "
)

// Result is how the action went as the audit log and a recording's act
// lines write it: "ok", or "failed: " and why.
func (a Action) Result() string {
	if a.Done() {
		return resultOK
	}
	return failedPrefix + a.Failed
}

// FailedOf reads a Result back as Action.Failed: "" for "ok", and "failed"
// for any other text that gives no reason, so that it never reads as done.
func FailedOf(result string) string {
	if result == resultOK {
		return ""
	}
	if why := strings.TrimPrefix(result, failedPrefix); why != "" {
		return why
	}
	return "failed"
}

// ActionSession is SessionHex of an action's session or owner, which may
// be none: "" for 0, as the audit log and a recording's act lines write it.
func ActionSession(id int64) string {
	if id == 0 {
		return ""
	}
	return SessionHex(id)
}

// ParseActionSession reads ActionSession's hex back: 0 for none, or for
// text that is not a session.
func ParseActionSession(hex string) int64 {
	u, err := strconv.ParseUint(strings.TrimPrefix(hex, "0x"), 16, 64)
	if err != nil {
		return 0
	}
	return int64(u)
}

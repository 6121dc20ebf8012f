package recording

import (
	"encoding/json"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// Version is the format version this package writes; it reads every
// earlier one too. Format 2 added the "act" line (an operator's action,
// zkwatch.EventAction), which a format 1 reader would take for a corrupt
// line. Format 3 added a participant's "pd" (not read yet,
// lockcore.Participant.Pending), which a format 2 reader would drop and
// then show the contender's unknown token and times as zeros. Format 4
// added a client's traffic in the servers' answers (zkwatch.ClientInfo's
// Asked, Silent and Heard), which a format 3 reader would drop
// and then show a frozen holder as a live one. Format 5 derives a
// holder's hold (lockcore.Hold) rather than store it on every reading: a
// hold carries on from the lock's last line, its bounds as of the read
// worked out again (to the microsecond, as every time), "hk" names one of
// a few usual holds, and a waiter granted watches nothing unless the line
// says; a format 4 reader would keep each holder's hold as first read,
// and a new holder's watch. Format 6 stores a servers' reading's clients
// as differences from the part's last reading ("cd", "cg"), which a format
// 5 reader would read as no clients. Format 7 stores an operator's action
// as an object of its own ("a", actionJSON) rather than its audit line as
// a string ("n"), which a format 6 reader would read as an action that
// says nothing, so it refuses the file as newer instead. An act line of
// zklocks' own lock client's release (lockcore.ActionRelease, written
// only by the UI's and the demo's --record) stays format 7: a reader
// that predates it counts it among the operator's actions and tells its
// hold "released, or force-released", which is less than it could say,
// not wrong; refusing every newer recording for it would cost more.
const Version = 7

// Header is a part's first line.
type Header struct {
	// Format is the format version (Version for what this package writes).
	Format int `json:"zklocks_recording"`
	// Started is the time the first event's offset counts from.
	Started time.Time `json:"started"`
	// Part counts the recording's parts from 1: each rotation starts the
	// next.
	Part int `json:"part"`
	// Server is the connect string the watcher watched; Roots its roots.
	Server string   `json:"server,omitempty"`
	Roots  []string `json:"roots,omitempty"`
	// By names the program that wrote the recording.
	By string `json:"by,omitempty"`
	// Run is when the process that wrote the part began its recording: a
	// part continues the one before it only when both have the same Run
	// (a history's parts across a restart are two runs, with a gap
	// between them that nothing watched).
	Run time.Time `json:"run,omitzero"`
}

// Event kinds as lines name them.
var kindNames = map[zkwatch.EventKind]string{
	zkwatch.EventConn: "conn", zkwatch.EventLock: "lock", zkwatch.EventLockGone: "gone",
	zkwatch.EventDenied: "denied", zkwatch.EventSynced: "synced", zkwatch.EventServers: "servers",
	zkwatch.EventError: "error", zkwatch.EventDiscovery: "disc", zkwatch.EventAction: "act",
}

var kindOf = func() map[string]zkwatch.EventKind {
	m := map[string]zkwatch.EventKind{}
	for k, v := range kindNames {
		m[v] = k
	}
	return m
}()

// line is one event line.
type line struct {
	T    int64  `json:"t"`
	AZ   bool   `json:"az,omitempty"` // the event has no time
	K    string `json:"k,omitempty"`  // "lock" when absent
	Snap bool   `json:"s,omitempty"`
	// The path: by name the first time, by number after.
	P string `json:"p,omitempty"`
	L int    `json:"l,omitempty"`
	// A lock's own fields, when they changed; its read time, when it is
	// not the event's (RZ: zero); its participants.
	H  *lockHead         `json:"h,omitempty"`
	RA *int64            `json:"ra,omitempty"`
	RZ bool              `json:"rz,omitempty"`
	PS []json.RawMessage `json:"ps,omitempty"`
	// Other kinds.
	E    string             `json:"e,omitempty"`
	Conn *connJSON          `json:"c,omitempty"`
	Disc *zkwatch.Discovery `json:"d,omitempty"`
	Srv  *serversJSON       `json:"sv,omitempty"`
	// A is an operator's action (EventAction, format 7); N, up to format
	// 6, was its audit line.
	A *actionJSON `json:"a,omitempty"`
	N string      `json:"n,omitempty"`
}

// actionJSON is an operator's action (lockcore.Action). Its names are the
// audit log's, so that the audit line an act line carried up to format 6
// ("n") reads into it too.
type actionJSON struct {
	Time    time.Time `json:"time"`
	User    string    `json:"user,omitempty"`
	Host    string    `json:"host,omitempty"`
	Via     string    `json:"via,omitempty"`
	Key     string    `json:"key,omitempty"`
	Server  string    `json:"server,omitempty"`
	Session string    `json:"session,omitempty"`
	Action  string    `json:"action"`
	Node    string    `json:"node,omitempty"`
	Czxid   int64     `json:"czxid,omitempty"`
	Owner   string    `json:"owner_session,omitempty"`
	// Result is "ok", or "failed: " and why.
	Result string `json:"result"`
}

// lockHead is a lock's fields other than its participants and read time.
type lockHead struct {
	Recipe        lockcore.Recipe `json:"r"`
	MaxLeases     *int            `json:"ml,omitempty"`
	HiddenWaiters []int64         `json:"hw,omitempty"`
	// Observers are Lock.Observers: sessions watching a plain lock's
	// node that are not its waiters.
	Observers     []lockcore.Observer  `json:"ob,omitempty"`
	Anomalies     []lockcore.Anomaly   `json:"an,omitempty"`
	Warnings      []string             `json:"wa,omitempty"`
	WatchesSource lockcore.WatchSource `json:"ws,omitempty"`
	// WatchesGap is Lock.WatchesGap; recordings made before it existed
	// carry it among the warnings (see gapOfOldWarnings).
	WatchesGap string `json:"wg,omitempty"`
	// LongHeld is the long-held threshold the analysis used
	// (Lock.LongHeldAfter), MaybeLongHeld its holders that only may be past it.
	LongHeld      time.Duration      `json:"lh,omitempty"`
	MaybeLongHeld []lockcore.Anomaly `json:"ml2,omitempty"`
	// App is what the lock's application says of it (Lock.App).
	App *lockcore.App `json:"ap,omitempty"`
	// Entry is Lock.Entry when it is not the recipe's name (nil: it is;
	// recordings made before it existed read so too); Assumed is
	// Lock.Assumed.
	Entry   *string  `json:"en,omitempty"`
	Assumed []string `json:"as,omitempty"`
	// Grant is Lock.Grant; SetAside Lock.SetAside.
	Grant    lockcore.Grant     `json:"gr,omitempty"`
	SetAside []lockcore.Anomaly `json:"sa,omitempty"`
}

// holdJSON is a holder's hold (lockcore.Hold): its grant's bounds in Unix
// nanoseconds, how it is known, and its bounds in nanoseconds at the read.
type holdJSON struct {
	After int64            `json:"a,omitempty"`
	By    int64            `json:"b,omitempty"`
	How   lockcore.HoldHow `json:"h,omitempty"`
	Min   int64            `json:"mn,omitempty"`
	Max   int64            `json:"mx,omitempty"`
}

// part is a participant as stored: every field is a difference from a
// base (a new participant's defaults, or the previous line's participant
// I), present only when it differs.
type part struct {
	I    *int    `json:"i,omitempty"`
	Node *string `json:"n,omitempty"`
	// NodeQ is a new participant\'s name without its sequence suffix.
	NodeQ *string `json:"nq,omitempty"`
	// A new participant's name's hex runs, packed (see packName): "n" or
	// "nq" is then the template.
	NodeL  []int           `json:"nl,omitempty"`
	NodeB  []byte          `json:"nb,omitempty"`
	Path   *string         `json:"pa,omitempty"`
	Rcp    *string         `json:"rc,omitempty"`
	Seq    *int64          `json:"q,omitempty"`
	HasSeq *bool           `json:"hs,omitempty"`
	Mode   *string         `json:"m,omitempty"`
	Role   *string         `json:"r,omitempty"`
	Pos    *int            `json:"po,omitempty"`
	Sess   json.RawMessage `json:"s,omitempty"`
	Eph    *bool           `json:"e,omitempty"`
	// Watches: the node watched ("w"), its path when not the lock path
	// and the node ("wp"), a children watch ("wc"), none ("w0"); "wi"
	// names the watched node by its number in the lock.
	W     *string  `json:"w,omitempty"`
	WI    *int     `json:"wi,omitempty"` // the watched node by its number in the lock
	WP    *string  `json:"wp,omitempty"`
	WC    *bool    `json:"wc,omitempty"`
	W0    bool     `json:"w0,omitempty"`
	Chain []string `json:"ch,omitempty"`
	ChSet bool     `json:"chs,omitempty"` // Chain given, even empty
	Cut   *bool    `json:"cc,omitempty"`
	// Watchers as session references, when not those WatchersByRule
	// gives; WT0: none.
	WT    []json.RawMessage `json:"wt,omitempty"`
	WT0   bool              `json:"wt0,omitempty"`
	Token *int64            `json:"z,omitempty"`
	Ver   *int32            `json:"v,omitempty"`
	// Ctime as milliseconds before the read (C0: zero).
	C     *int64    `json:"c,omitempty"`
	C0    bool      `json:"c0,omitempty"`
	CN    *int64    `json:"cn,omitempty"` // a ctime that is not whole milliseconds, in Unix nanoseconds
	Age   *int64    `json:"ag,omitempty"`
	Data  *string   `json:"d,omitempty"`
	DataB []byte    `json:"db,omitempty"`
	D0    bool      `json:"d0,omitempty"`
	Trunc *bool     `json:"dt,omitempty"`
	Note  *string   `json:"no,omitempty"`
	WU    *bool     `json:"wu,omitempty"` // WatchesUnknown
	DD    *bool     `json:"dd,omitempty"` // DataDenied
	PF    *string   `json:"pf,omitempty"` // PartOf
	ID    *string   `json:"id,omitempty"` // Identity
	Hold  *holdJSON `json:"hd,omitempty"` // when it differs from the derived one
	// HK names the hold when it is one of holdKinds rather than the
	// default (format 5).
	HK string `json:"hk,omitempty"`
	// Pend is Pending when it differs from the base's (format 3).
	Pend *bool `json:"pd,omitempty"`
}

// connJSON is a connection state.
type connJSON struct {
	Phase   zkwatch.ConnPhase `json:"ph"`
	Server  string            `json:"sv,omitempty"`
	Session int64             `json:"se,omitempty"`
	Since   time.Time         `json:"si"`
}

// serversJSON is what an EventServers says; errors keep their text.
type serversJSON struct {
	Servers   []serverJSON         `json:"servers"`
	Clients   []zkwatch.ClientInfo `json:"clients,omitempty"`
	Complete  bool                 `json:"complete,omitempty"`
	Asked     time.Time            `json:"clients_asked"`
	CNote     string               `json:"clients_note,omitempty"`
	For       string               `json:"watches_for,omitempty"`
	Note      string               `json:"note,omitempty"`
	WatchesAt time.Time            `json:"watches_at"`
	Cost      []words.MemberCost   `json:"cost,omitempty"`
	// CD and CG are the clients as differences from the part's last
	// reading (format 6, clients.go): the sessions changed or new, and
	// those gone.
	CD []clientDiff      `json:"cd,omitempty"`
	CG []json.RawMessage `json:"cg,omitempty"`
}

type serverJSON struct {
	Addr    string             `json:"addr"`
	Status  words.ServerStatus `json:"status"`
	Refused []string           `json:"refused,omitempty"`
	Err     string             `json:"err,omitempty"`
	Failed  map[string]string  `json:"failed,omitempty"`
	// Via says how each word was answered: "4lw" or "admin"; AdminErr
	// why the member's AdminServer was not there.
	Via      map[string]words.Via `json:"via,omitempty"`
	AdminErr string               `json:"admin_err,omitempty"`
}

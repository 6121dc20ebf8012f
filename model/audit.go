package model

import (
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// AuditEntry is one line of the audit log: one destructive action, whether
// it succeeded or not. It holds no credentials by construction.
type AuditEntry struct {
	Time time.Time `json:"time"`
	// User is the operating-system user who acted, or under zklocks
	// serve the SSH user.
	User string `json:"user"`
	// Host is the name of the machine the action was taken from, and Via
	// says from where in zklocks: ViaUI or ViaCLI. An operator who comes
	// second reads from them who acted first.
	Host string `json:"host,omitempty"`
	Via  string `json:"via,omitempty"`
	// Key is, under zklocks serve, the fingerprint (SHA256:…) of the SSH
	// key the user signed in with; absent otherwise.
	Key string `json:"key,omitempty"`
	// Server is the connect string acted on.
	Server string `json:"server"`
	// Session is the session that acted.
	Session string `json:"session"`
	Action  string `json:"action"`
	Node    string `json:"node"`
	Czxid   int64  `json:"czxid"`
	// Owner is the session that owned the node acted on.
	Owner  string `json:"owner_session"`
	Result string `json:"result"`
}

// Where an action came from (AuditEntry.Via). ViaSSH is a session of
// zklocks serve: User is then the SSH user, Key their key's fingerprint,
// and Host the address they connected from.
const (
	ViaUI  = "ui"
	ViaCLI = "cli"
	ViaSSH = "ssh"
)

// Audit appends entries as JSON lines to a writer (the audit log, opened
// for appending with mode 0600 by the caller). It is safe for concurrent
// use.
type Audit struct {
	mu sync.Mutex
	w  io.Writer
}

// NewAudit writes entries to w.
func NewAudit(w io.Writer) *Audit { return &Audit{w: w} }

// Record writes one entry.
func (a *Audit) Record(e AuditEntry) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	_, err = a.w.Write(append(b, '\n'))
	return err
}

// Event is the entry as the watcher passes it on (zkwatch.EventAction):
// its audit line, as the log has it, on the node acted on.
func (e AuditEntry) Event() zkwatch.Event {
	b, _ := json.Marshal(e) // a struct of strings, numbers and a time
	return zkwatch.Event{Kind: zkwatch.EventAction, At: e.Time, Path: e.Node, Note: string(b)}
}

func sessionOrNone(id int64) string {
	if id == 0 {
		return ""
	}
	return lockcore.SessionHex(id)
}

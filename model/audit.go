package model

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// Where an action came from (lockcore.Action's Via). ViaSSH is a session
// of zklocks serve: User is then the SSH user, Key their key's
// fingerprint (and Cert their certificate's key id, serial and principal
// when they signed in with one), and Host the address they connected from.
const (
	ViaUI  = "ui"
	ViaCLI = "cli"
	ViaSSH = "ssh"
)

// auditLine is an action as the audit log writes it, one JSON object a
// line; its names are what the log's readers (and their tools) know.
type auditLine struct {
	Time time.Time  `json:"time"`
	User string     `json:"user"`
	Host string     `json:"host,omitempty"`
	Via  string     `json:"via,omitempty"`
	Key  string     `json:"key,omitempty"`
	Cert *auditCert `json:"cert,omitempty"`
	// Approved is the second person who approved the action.
	Approved *auditOperator `json:"approved_by,omitempty"`
	// Recording is the acting session's recording, and the offset in it
	// (seconds) of the key that confirmed the action.
	Recording *auditRecording `json:"recording,omitempty"`
	Server    string          `json:"server"`
	Session   string          `json:"session"`
	Action    string          `json:"action"`
	Node      string          `json:"node"`
	Czxid     int64           `json:"czxid"`
	Owner     string          `json:"owner_session"`
	Result    string          `json:"result"`
}

// auditCert is the certificate a serve user signed in with.
type auditCert struct {
	ID        string `json:"id"`
	Serial    uint64 `json:"serial"`
	Principal string `json:"principal"`
}

// auditRecording is where an action is in a session recording.
type auditRecording struct {
	File   string  `json:"file"`
	Offset float64 `json:"offset"`
}

// auditOperator is an approver, as the audit line names the user.
type auditOperator struct {
	User string     `json:"user"`
	Host string     `json:"host,omitempty"`
	Key  string     `json:"key,omitempty"`
	Cert *auditCert `json:"cert,omitempty"`
}

func auditCertOf(c *lockcore.Certificate) *auditCert {
	if c == nil {
		return nil
	}
	return &auditCert{ID: c.KeyID, Serial: c.Serial, Principal: c.Principal}
}

func recordingOf(m *lockcore.RecordingMark) *auditRecording {
	if m == nil {
		return nil
	}
	return &auditRecording{File: m.File, Offset: m.Offset.Seconds()}
}

func certOf(c *auditCert) *lockcore.Certificate {
	if c == nil {
		return nil
	}
	return &lockcore.Certificate{KeyID: c.ID, Serial: c.Serial, Principal: c.Principal}
}

// AuditLine is the action's line in the audit log, without its newline:
// what the event log shows of an operator's action, so that it can be
// found in the log.
func AuditLine(a lockcore.Action) string {
	var approved *auditOperator
	if o := a.ApprovedBy; o != nil {
		approved = &auditOperator{User: o.User, Host: o.Host, Key: o.Key, Cert: auditCertOf(o.Cert)}
	}
	b, _ := json.Marshal(auditLine{Time: a.At, User: a.User, Host: a.Host, Via: a.Via, Key: a.Key, Cert: auditCertOf(a.Cert),
		Approved: approved, Recording: recordingOf(a.Recording), Server: a.Server,
		Session: lockcore.ActionSession(a.Session), Action: string(a.Kind), Node: a.Node, Czxid: a.Token,
		Owner: lockcore.ActionSession(a.Owner), Result: a.Result()}) // strings, numbers and a time
	return string(b)
}

// ParseAuditLine reads one line of the audit log.
func ParseAuditLine(line []byte) (lockcore.Action, error) {
	var l auditLine
	if err := json.Unmarshal(line, &l); err != nil {
		return lockcore.Action{}, fmt.Errorf("audit line: %w", err)
	}
	a := lockcore.Action{At: l.Time, User: l.User, Host: l.Host, Via: l.Via, Key: l.Key, Server: l.Server,
		Kind: lockcore.ActionKind(l.Action), Node: l.Node, Token: l.Czxid,
		Session: lockcore.ParseActionSession(l.Session), Owner: lockcore.ParseActionSession(l.Owner),
		Failed: lockcore.FailedOf(l.Result)}
	a.Cert = certOf(l.Cert)
	if r := l.Recording; r != nil {
		a.Recording = &lockcore.RecordingMark{File: r.File, Offset: time.Duration(r.Offset * float64(time.Second))}
	}
	if o := l.Approved; o != nil {
		a.ApprovedBy = &lockcore.Operator{User: o.User, Host: o.Host, Key: o.Key, Cert: certOf(o.Cert)}
	}
	return a, nil
}

// Audit appends actions as JSON lines to a writer (the audit log, opened
// for appending with mode 0600 by the caller). It is safe for concurrent
// use.
type Audit struct {
	mu sync.Mutex
	w  io.Writer
}

// NewAudit writes lines to w.
func NewAudit(w io.Writer) *Audit { return &Audit{w: w} }

// Record writes one action's line.
func (a *Audit) Record(act lockcore.Action) error {
	line := AuditLine(act) + "\n"
	a.mu.Lock()
	defer a.mu.Unlock()
	_, err := io.WriteString(a.w, line)
	return err
}

package recording

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/zklocks/zklocks/lockcore"
)

// resultOK is a done action's result, as the audit log writes it too;
// failedPrefix begins a failed one's.
const (
	resultOK     = "ok"
	failedPrefix = "failed: "
)

// actionOf is a as an act line stores it.
func actionOf(a *lockcore.Action) *actionJSON {
	res := resultOK
	if !a.Done() {
		res = failedPrefix + a.Failed
	}
	return &actionJSON{Time: a.At, User: a.User, Host: a.Host, Via: a.Via, Key: a.Key, Server: a.Server,
		Session: sessionText(a.Session), Action: string(a.Kind), Node: a.Node, Czxid: a.Token,
		Owner: sessionText(a.Owner), Result: res}
}

// action is j back as the action it stores.
func (j *actionJSON) action() *lockcore.Action {
	a := &lockcore.Action{At: j.Time, User: j.User, Host: j.Host, Via: j.Via, Key: j.Key, Server: j.Server,
		Session: sessionNumber(j.Session), Kind: lockcore.ActionKind(j.Action), Node: j.Node, Token: j.Czxid,
		Owner: sessionNumber(j.Owner)}
	if j.Result != resultOK {
		a.Failed = strings.TrimPrefix(j.Result, failedPrefix)
		if a.Failed == "" {
			a.Failed = "failed"
		}
	}
	return a
}

// oldAction reads an act line of format 6 or earlier: its "n" is the
// action's audit line. A line that does not parse is an action that says
// nothing of itself, as those formats' readers read it: nil.
func oldAction(n string, node string) *lockcore.Action {
	var j actionJSON
	if err := json.Unmarshal([]byte(n), &j); err != nil {
		return nil
	}
	if j.Node == "" {
		j.Node = node
	}
	return j.action()
}

func sessionText(id int64) string {
	if id == 0 {
		return ""
	}
	return lockcore.SessionHex(id)
}

// sessionNumber reads sessionText's hex: 0 for none, or for what is not
// one.
func sessionNumber(hex string) int64 {
	u, err := strconv.ParseUint(strings.TrimPrefix(hex, "0x"), 16, 64)
	if err != nil {
		return 0
	}
	return int64(u)
}

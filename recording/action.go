package recording

import (
	"encoding/json"

	"github.com/zklocks/zklocks/lockcore"
)

// actionOf is a as an act line stores it.
func actionOf(a *lockcore.Action) *actionJSON {
	return &actionJSON{Time: a.At, User: a.User, Host: a.Host, Via: a.Via, Key: a.Key, Server: a.Server,
		Session: lockcore.ActionSession(a.Session), Action: string(a.Kind), Node: a.Node, Czxid: a.Token,
		Owner: lockcore.ActionSession(a.Owner), Result: a.Result()}
}

// action is j back as the action it stores.
func (j *actionJSON) action() *lockcore.Action {
	return &lockcore.Action{At: j.Time, User: j.User, Host: j.Host, Via: j.Via, Key: j.Key, Server: j.Server,
		Session: lockcore.ParseActionSession(j.Session), Kind: lockcore.ActionKind(j.Action), Node: j.Node, Token: j.Czxid,
		Owner: lockcore.ParseActionSession(j.Owner), Failed: lockcore.FailedOf(j.Result)}
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

package ui

import "github.com/zklocks/zklocks/model"

// client is what the servers said of session's client, its times in the
// UI's location.
func (e *env) client(session int64) model.Client { return e.state.Client(session).In(e.loc) }

package report

import (
	"encoding/json"
	"io"

	"github.com/zklocks/zklocks/lockcore"

	"github.com/zklocks/zklocks/lockclient"
)

// grantJSON is `zklocks acquire --json`'s line: the lock we were granted.
// Fields are in the order the first release printed them.
type grantJSON struct {
	Mode    lockcore.Mode   `json:"mode"`
	Node    string          `json:"node"`
	Recipe  lockcore.Recipe `json:"recipe"`
	Session string          `json:"session"`
	Token   int64           `json:"token"`
}

// WriteGrantJSON writes h, a lock just granted, as one JSON line: node
// (its path), token (the fencing token), session (0x + hex), recipe and
// mode.
func WriteGrantJSON(w io.Writer, h *lockclient.Held) error {
	return json.NewEncoder(w).Encode(grantJSON{Mode: h.Mode, Node: h.Node, Recipe: h.Recipe,
		Session: lockcore.SessionHex(h.Session), Token: h.Token})
}

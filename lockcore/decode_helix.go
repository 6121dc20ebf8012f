package lockcore

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// HelixLeader is the data of a Helix controller's LEADER node.
type HelixLeader struct {
	Instance     string
	Session      string // SESSION_ID as written: hex, no 0x
	LiveInstance string // pid@host
	Version      string
}

// DecodeHelixLeader reads LEADER's ZNRecord; false unless it is one with
// an id.
func DecodeHelixLeader(data []byte) (HelixLeader, bool) {
	var r struct {
		ID     string            `json:"id"`
		Simple map[string]string `json:"simpleFields"`
	}
	if json.Unmarshal(data, &r) != nil || r.ID == "" {
		return HelixLeader{}, false
	}
	return HelixLeader{Instance: r.ID, Session: r.Simple["SESSION_ID"], LiveInstance: r.Simple["LIVE_INSTANCE"], Version: r.Simple["HELIX_VERSION"]}, true
}

func (h HelixLeader) String() string {
	return "controller " + h.Instance + whenSet(" (", h.LiveInstance, ")")
}

// helixHistory reads HISTORY's entries, oldest first: each a controller
// and, when the entry says, when it took over.
func helixHistory(data []byte, cluster string) ([]string, []time.Time, bool) {
	var r struct {
		List map[string][]string `json:"listFields"`
	}
	if json.Unmarshal(data, &r) != nil {
		return nil, nil, false
	}
	var names []string
	var at []time.Time
	if entries, ok := r.List[helixHistoryName]; ok {
		for _, e := range entries {
			fields := map[string]string{}
			for _, kv := range strings.Split(strings.Trim(e, "{}"), ", ") {
				if k, v, ok := strings.Cut(kv, "="); ok {
					fields[k] = v
				}
			}
			var t time.Time
			if ms, err := strconv.ParseInt(fields["TIME"], 10, 64); err == nil {
				t = time.UnixMilli(ms)
			}
			names, at = append(names, fields["CONTROLLER"]), append(at, t)
		}
		return names, at, true
	}
	names = r.List[cluster]
	return names, make([]time.Time, len(names)), names != nil
}

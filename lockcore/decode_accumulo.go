package lockcore

import (
	"encoding/json"
	"strings"
)

// DecodeAccumuloLockData names the server in a ServiceLock node's data:
// 3.0's JSON descriptors, 2.1's "SERVICE=addr;…" services, or the plain
// address a 2.1 manager writes. False when it is none of these.
func DecodeAccumuloLockData(data []byte) (string, bool) {
	text := string(data)
	var js struct {
		Descriptors []struct {
			Service string `json:"service"`
			Address string `json:"address"`
			Group   string `json:"group"`
		} `json:"descriptors"`
	}
	if strings.HasPrefix(text, "{") {
		if json.Unmarshal(data, &js) != nil || len(js.Descriptors) == 0 {
			return "", false
		}
		var parts []string
		for _, d := range js.Descriptors {
			parts = append(parts, d.Service+" "+d.Address+whenSet(" (group ", d.Group, ")"))
		}
		return strings.Join(parts, ", "), true
	}
	if strings.Contains(text, "=") {
		var parts []string
		for _, svc := range strings.Split(text, ";") {
			name, addr, ok := strings.Cut(svc, "=")
			if !ok || name == "" || addr == "" {
				return "", false
			}
			parts = append(parts, name+" "+addr)
		}
		return strings.Join(parts, ", "), true
	}
	if host, port, ok := strings.Cut(text, ":"); ok && host != "" && isDecimal(port) {
		return text, true
	}
	return "", false
}

// DecodeAccumuloFateEntry reads a FATE lock entry, "READ:<fate id>" or
// "WRITE:<fate id>", from the node's name (Accumulo 4) or data (2.1).
func DecodeAccumuloFateEntry(entry string) (mode Mode, txid string, ok bool) {
	kind, id, found := strings.Cut(entry, ":")
	switch {
	case !found || id == "":
		return "", "", false
	case kind == "READ":
		return ModeRead, id, true
	case kind == "WRITE":
		return ModeWrite, id, true
	}
	return "", "", false
}

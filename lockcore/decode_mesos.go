package lockcore

import (
	"encoding/json"
	"fmt"
)

// MesosMaster is what a master's MasterInfo JSON says of it.
type MesosMaster struct {
	Hostname, PID, Version string
}

// DecodeMesosMaster reads MasterInfo's JSON; false when it is not
// (info_ nodes hold a protobuf, and are not decoded).
func DecodeMesosMaster(data []byte) (MesosMaster, bool) {
	var m struct {
		Hostname string `json:"hostname"`
		PID      string `json:"pid"`
		Version  string `json:"version"`
		Address  struct {
			Hostname string `json:"hostname"`
		} `json:"address"`
	}
	if json.Unmarshal(data, &m) != nil || m.PID == "" && m.Hostname == "" {
		return MesosMaster{}, false
	}
	if m.Hostname == "" {
		m.Hostname = m.Address.Hostname
	}
	return MesosMaster{Hostname: m.Hostname, PID: m.PID, Version: m.Version}, true
}

func (m MesosMaster) String() string {
	return "master " + m.Hostname + whenSet(" (", m.PID, ")") + whenSet(" ", m.Version, "")
}

// serverSetEndpoint reads a ServerSet member's serviceEndpoint as
// host:port; "" when it does not decode.
func serverSetEndpoint(data []byte) string {
	var m struct {
		ServiceEndpoint struct {
			Host string `json:"host"`
			Port int    `json:"port"`
		} `json:"serviceEndpoint"`
	}
	if json.Unmarshal(data, &m) != nil || m.ServiceEndpoint.Host == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d", m.ServiceEndpoint.Host, m.ServiceEndpoint.Port)
}

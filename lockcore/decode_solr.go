package lockcore

import "encoding/json"

// SolrLeader is the data of a Solr leader node.
type SolrLeader struct {
	// ID is the overseer leader's election node name.
	ID string `json:"id"`
	// The shard leader's properties.
	Core         string `json:"core"`
	CoreNodeName string `json:"core_node_name"`
	BaseURL      string `json:"base_url"`
	NodeName     string `json:"node_name"`
}

// DecodeSolrLeader decodes a leader node's JSON; false when it is not
// Solr's.
func DecodeSolrLeader(data []byte) (SolrLeader, bool) {
	var s SolrLeader
	if err := json.Unmarshal(data, &s); err != nil || s.ID == "" && s.NodeName == "" && s.Core == "" {
		return SolrLeader{}, false
	}
	return s, true
}

// String names the leader in Solr's terms.
func (s SolrLeader) String() string {
	if s.ID != "" {
		if n := ParseName(s.ID); n.Kind == KindSolrElection {
			return "node " + n.Prefix
		}
		return "election node " + s.ID
	}
	return "core " + s.Core + whenSet(" (", s.CoreNodeName, ")") + whenSet(" on node ", s.NodeName, "")
}

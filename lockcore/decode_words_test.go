package lockcore

import "testing"

func TestWhenSet(t *testing.T) {
	for _, tc := range []struct {
		name, before, v, after, want string
	}{
		{"set, in parentheses", " (", "core_node1", ")", " (core_node1)"},
		{"set, no after", " on node ", "10.0.0.1:8983_solr", "", " on node 10.0.0.1:8983_solr"},
		{"empty adds nothing", " (", "", ")", ""},
		{"blank is set", " ", " ", "", "  "},
	} {
		if got := whenSet(tc.before, tc.v, tc.after); got != tc.want {
			t.Errorf("%s: whenSet(%q, %q, %q) = %q, want %q", tc.name, tc.before, tc.v, tc.after, got, tc.want)
		}
	}
}

// TestDecodedNamesLeaveOutWhatIsNotSet holds the names the decoders give
// when the optional fields are absent, beside the full ones the decode
// tests hold.
func TestDecodedNamesLeaveOutWhatIsNotSet(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  string
		want string
	}{
		{"mesos, all", MesosMaster{Hostname: "m1", PID: "master@10.0.0.1:5050", Version: "1.11.0"}.String(), "master m1 (master@10.0.0.1:5050) 1.11.0"},
		{"mesos, no pid", MesosMaster{Hostname: "m1", Version: "1.11.0"}.String(), "master m1 1.11.0"},
		{"mesos, no version", MesosMaster{Hostname: "m1", PID: "master@10.0.0.1:5050"}.String(), "master m1 (master@10.0.0.1:5050)"},
		{"solr core, no node name", SolrLeader{Core: "c1", CoreNodeName: "core_node1"}.String(), "core c1 (core_node1)"},
		{"solr core, only node", SolrLeader{Core: "c1", NodeName: "n1"}.String(), "core c1 on node n1"},
		{"helix, live", HelixLeader{Instance: "c1", LiveInstance: "c1_12000"}.String(), "controller c1 (c1_12000)"},
		{"helix, not live", HelixLeader{Instance: "c1"}.String(), "controller c1"},
		{"hbase table lock, no purpose", HBaseTableLock{Owner: HBaseServerName{Host: "rs1", Port: 16020, StartCode: 1}, ThreadID: 7}.String(), "rs1,16020,1 (thread 7)"},
		{"hbase table lock, purpose", HBaseTableLock{Owner: HBaseServerName{Host: "rs1", Port: 16020, StartCode: 1}, ThreadID: 7, Purpose: "alter"}.String(), "rs1,16020,1 (thread 7) for alter"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

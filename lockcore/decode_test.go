package lockcore

import (
	"encoding/hex"
	"strings"
	"testing"
)

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// hdfsNN1 is ActiveNodeInfo{mycluster, nn1, nn1.example.com, 8020, 8019}
// as HDFS's ZKFC writes it (protobuf, nothing prepended).
const hdfsNN1 = "0a096d79636c757374657212036e6e311a0f6e6e312e6578616d706c652e636f6d20d43e28d33e"

// hbaseMaster1 is HBase's master node for hmaster1.example.com,16000,
// 1700000000000, info port 16010, written by "master:16000" with the salt
// 0102030405060708: ZKMetadata, "PBUF", Master.
const hbaseMaster1 = "ff00000014 6d61737465723a3136303030 0102030405060708 50425546 " +
	"0a200a14686d6173746572312e6578616d706c652e636f6d10807d1880d095ffbc311000188a7d"

func TestDecodeHadoopActive(t *testing.T) {
	for _, tc := range []struct {
		name string
		data string
		want HadoopActive
		ok   bool
	}{
		{"hdfs", hdfsNN1, HadoopActive{NameNode: true, Cluster: "mycluster", ID: "nn1", Hostname: "nn1.example.com", Port: 8020, ZKFCPort: 8019}, true},
		// ActiveRMInfoProto{clusterId: "yarn1", rmId: "rm2"}.
		{"yarn", "0a057961726e311203726d32", HadoopActive{Cluster: "yarn1", ID: "rm2"}, true},
		// A field number a newer release added (9, a string) is skipped.
		{"newer field", hdfsNN1 + "4a0178", HadoopActive{NameNode: true, Cluster: "mycluster", ID: "nn1", Hostname: "nn1.example.com", Port: 8020, ZKFCPort: 8019}, true},
		{"cut", hdfsNN1[:20], HadoopActive{}, false},
		{"text", hex.EncodeToString([]byte("nn1.example.com:8020")), HadoopActive{}, false},
		{"empty", "", HadoopActive{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := DecodeHadoopActive(unhex(t, tc.data))
			if ok != tc.ok || ok && got != tc.want {
				t.Fatalf("DecodeHadoopActive = %+v, %v; want %+v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
	h, _ := DecodeHadoopActive(unhex(t, hdfsNN1))
	if got := h.String(); got != "NameNode nn1 at nn1.example.com:8020 (nameservice mycluster, ZKFC port 8019)" {
		t.Fatalf("String = %q", got)
	}
}

func TestDecodeHBaseMaster(t *testing.T) {
	want := HBaseMaster{Server: HBaseServerName{Host: "hmaster1.example.com", Port: 16000, StartCode: 1700000000000},
		InfoPort: 16010, ProcessID: "master:16000"}
	for _, tc := range []struct {
		name string
		data string
		want HBaseMaster
		ok   bool
	}{
		{"with metadata", hbaseMaster1, want, true},
		{"without metadata", hbaseMaster1[len("ff00000014 6d61737465723a3136303030 0102030405060708 "):],
			HBaseMaster{Server: want.Server, InfoPort: 16010}, true},
		{"id length past the data", "ff7fffffff00", HBaseMaster{}, false},
		{"no PBUF", "ff0000000800000000000000000a00", HBaseMaster{}, false},
		{"cut protobuf", hbaseMaster1[:len(hbaseMaster1)-14], HBaseMaster{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := DecodeHBaseMaster(unhex(t, tc.data))
			if ok != tc.ok || ok && got != tc.want {
				t.Fatalf("DecodeHBaseMaster = %+v, %v; want %+v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
	if s := want.Server.String(); s != "hmaster1.example.com,16000,1700000000000" {
		t.Fatalf("ServerName = %q", s)
	}
	if sn, ok := ParseHBaseServerName("hmaster2.example.com,16000,1700000000123"); !ok || sn.Port != 16000 || sn.StartCode != 1700000000123 {
		t.Fatalf("ParseHBaseServerName = %+v, %v", sn, ok)
	}
}

func TestDecodeKafka(t *testing.T) {
	for _, tc := range []struct {
		data   string
		broker int
		kraft  *int
		ok     bool
	}{
		{`{"version":2,"brokerid":1,"timestamp":"1700000000000","kraftControllerEpoch":-1}`, 1, new(int), true},
		{`{"version":1,"brokerid":3,"timestamp":"1500000000000"}`, 3, nil, true},
		{`{"brokerid":3}`, 0, nil, false},
		{`3`, 0, nil, false},
	} {
		c, ok := DecodeKafkaController([]byte(tc.data))
		if ok != tc.ok || ok && (c.BrokerID != tc.broker || (c.KRaftControllerEpoch == nil) != (tc.kraft == nil)) {
			t.Fatalf("DecodeKafkaController(%s) = %+v, %v", tc.data, c, ok)
		}
	}
	b, ok := DecodeKafkaBroker([]byte(`{"features":{},"listener_security_protocol_map":{"PLAINTEXT":"PLAINTEXT"},"endpoints":["PLAINTEXT://kafka1:9092"],"jmx_port":-1,"port":9092,"host":"kafka1","version":5,"timestamp":"1700000000000","rack":"r1"}`))
	if !ok || b.Address() != "kafka1:9092" || b.Rack != "r1" {
		t.Fatalf("DecodeKafkaBroker = %+v, %v", b, ok)
	}
	if b, ok := DecodeKafkaBroker([]byte(`{"version":5,"host":null,"port":-1,"endpoints":["SSL://kafka2:9093"]}`)); !ok || b.Address() != "SSL://kafka2:9093" {
		t.Fatalf("broker with no plaintext listener = %+v, %v", b, ok)
	}
	if v, ok := DecodeKafkaEpoch([]byte("17")); !ok || v != 17 {
		t.Fatalf("DecodeKafkaEpoch = %d, %v", v, ok)
	}
}

func TestDecodeSolrLeader(t *testing.T) {
	overseer := "{\n  \"id\":\"72057594037927936-10.0.0.1:8983_solr-n_0000000000\"}"
	s, ok := DecodeSolrLeader([]byte(overseer))
	if !ok || s.String() != "node 10.0.0.1:8983_solr" {
		t.Fatalf("overseer leader = %+v %q, %v", s, s.String(), ok)
	}
	shard := `{"core":"c1_shard1_replica_n1","core_node_name":"core_node1","base_url":"http://10.0.0.1:8983/solr","node_name":"10.0.0.1:8983_solr"}`
	s, ok = DecodeSolrLeader([]byte(shard))
	if !ok || s.String() != "core c1_shard1_replica_n1 (core_node1) on node 10.0.0.1:8983_solr" {
		t.Fatalf("shard leader = %q, %v", s.String(), ok)
	}
	if _, ok := DecodeSolrLeader([]byte(`{"x":1}`)); ok {
		t.Fatal("a JSON object without Solr's fields decoded")
	}
}

func TestDecodeAccumulo(t *testing.T) {
	for _, tc := range []struct {
		data, want string
		ok         bool
	}{
		{"TSERV_CLIENT=ts1:9997", "TSERV_CLIENT ts1:9997", true},
		{"GC_CLIENT=gc1:9998;OTHER=gc1:1", "GC_CLIENT gc1:9998, OTHER gc1:1", true},
		{"mgr1:9999", "mgr1:9999", true},
		{`{"descriptors":[{"uuid":"5f0e","service":"TSERV","address":"ts1:9997","group":"default"}]}`, "TSERV ts1:9997 (group default)", true},
		{"hello", "", false},
		{`{"descriptors":[]}`, "", false},
	} {
		got, ok := DecodeAccumuloLockData([]byte(tc.data))
		if got != tc.want || ok != tc.ok {
			t.Fatalf("DecodeAccumuloLockData(%q) = %q, %v", tc.data, got, ok)
		}
	}
	if m, tx, ok := DecodeAccumuloFateEntry("WRITE:000000000000abcd"); !ok || m != ModeWrite || tx != "000000000000abcd" {
		t.Fatalf("DecodeAccumuloFateEntry = %v %q %v", m, tx, ok)
	}
}

func TestParseAppNames(t *testing.T) {
	for _, tc := range []struct {
		name    string
		kind    NameKind
		prefix  string
		seq     int64
		session int64
	}{
		{"72057594037927936-10.0.0.1:8983_solr-n_0000000000", KindSolrElection, "10.0.0.1:8983_solr", 0, 72057594037927936},
		{"-8070450532247928832-core_node2-n_0000000026", KindSolrElection, "core_node2", 26, -8070450532247928832},
		{"166405419031556837-solr-2.example.com:8080_solr-n_0000000115", KindSolrElection, "solr-2.example.com:8080_solr", 115, 166405419031556837},
		{"zlock#44755fbe-1c9e-40b3-8458-03abaf950d7e#0000000004", KindAccumuloLock, "44755fbe-1c9e-40b3-8458-03abaf950d7e", 4, 0},
		{"zlock-0000000007", KindAccumuloLock, "", 7, 0},
		{"flock#0000000011", KindAccumuloFate, "", 11, 0},
		{"flock#WRITE:FATE:USER:0b5e2f5a-7d21-4c9a-8a2a-c9aa44755fbe#0000000003", KindAccumuloFate, "WRITE:FATE:USER:0b5e2f5a-7d21-4c9a-8a2a-c9aa44755fbe", 3, 0},
		{"hmaster2.example.com,16000,1700000000123", KindHBaseServer, "", 0, 0},
		// Not Solr's: no session before the id.
		{"host-n_0000000001", KindSequential, "host-n_", 1, 0},
		// Accumulo's prefix with no id between the marks: no lock, no panic.
		{"zlock#0000000001", KindSequential, "zlock#", 1, 0},
	} {
		n := ParseName(tc.name)
		if n.Kind != tc.kind || n.Prefix != tc.prefix || n.Seq != tc.seq || n.Session != tc.session {
			t.Errorf("ParseName(%q) = %+v", tc.name, n)
		}
	}
}

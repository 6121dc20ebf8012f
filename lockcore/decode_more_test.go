package lockcore

import (
	"testing"
	"time"
)

func TestParseNewApplicationNames(t *testing.T) {
	for _, tc := range []struct {
		name   string
		kind   NameKind
		prefix string
		seq    int64
	}{
		{"LOCK-SHARED-0000000007", KindHiveLock, "SHARED", 7},
		{"LOCK-EXCLUSIVE-0000000008", KindHiveLock, "EXCLUSIVE", 8},
		{"LOCK-SEMI_SHARED-0000000009", KindHiveLock, "SEMI_SHARED", 9},
		{"LOCK-OTHER-0000000009", KindSequential, "LOCK-OTHER", 9},
		{"json.info_0000000003", KindMesosMaster, "", 3},
		{"info_0000000004", KindMesosMaster, "", 4},
		{"member_0000000005", KindServerSetMember, "", 5},
	} {
		n := ParseName(tc.name)
		if n.Kind != tc.kind || n.Prefix != tc.prefix || n.Seq != tc.seq {
			t.Errorf("%s: kind %s prefix %q seq %d, want %s %q %d", tc.name, n.Kind, n.Prefix, n.Seq, tc.kind, tc.prefix, tc.seq)
		}
	}
}

func TestDecodeHelix(t *testing.T) {
	h, ok := DecodeHelixLeader([]byte(`{"id":"ctrl1_12000","simpleFields":{"SESSION_ID":"10000abc","LIVE_INSTANCE":"42@ctrl1","HELIX_VERSION":"1.0.4"}}`))
	if !ok || h != (HelixLeader{Instance: "ctrl1_12000", Session: "10000abc", LiveInstance: "42@ctrl1", Version: "1.0.4"}) {
		t.Errorf("leader %+v %v", h, ok)
	}
	if _, ok := DecodeHelixLeader([]byte(`{"simpleFields":{}}`)); ok {
		t.Error("a ZNRecord without id decoded")
	}
	names, at, ok := helixHistory([]byte(`{"listFields":{"HISTORY":["{DATE=2023-11-14-22:13:20, CONTROLLER=c1, TIME=1700000000000, VERSION=1.0.4}"]}}`), "k")
	if !ok || len(names) != 1 || names[0] != "c1" || !at[0].Equal(time.UnixMilli(1700000000000)) {
		t.Errorf("history %v %v %v", names, at, ok)
	}
	// Before ControllerHistory: names only, under the cluster's name.
	names, at, ok = helixHistory([]byte(`{"listFields":{"k":["c1","c2"]}}`), "k")
	if !ok || len(names) != 2 || names[1] != "c2" || !at[1].IsZero() {
		t.Errorf("old history %v %v %v", names, at, ok)
	}
}

func TestDecodePulsarOwner(t *testing.T) {
	for _, tc := range []struct {
		data, want, reg string
		ok              bool
	}{
		{`{"serviceUrl":"http://b1:8080"}`, "broker http://b1:8080", "b1:8080", true},
		{`{"brokerId":"b1:8080","serviceUrl":"http://b1:8080"}`, "broker b1:8080 (http://b1:8080)", "b1:8080", true},
		{`{"nativeUrl":"pulsar://b2:6650","httpUrl":"http://b2:8080","disabled":false}`, "broker pulsar://b2:6650 (http://b2:8080)", "b2:8080", true},
		{`{"nativeUrlTls":"pulsar+ssl://b3:6651","httpUrlTls":"https://b3:8443"}`, "broker pulsar+ssl://b3:6651 (https://b3:8443)", "b3:8443", true},
		{`{"other":1}`, "", "", false},
		{`not json`, "", "", false},
	} {
		o, ok := DecodePulsarOwner([]byte(tc.data))
		if ok != tc.ok || ok && (o.String() != tc.want || o.registration() != tc.reg) {
			t.Errorf("%s: %q %q %v", tc.data, o.String(), o.registration(), ok)
		}
	}
	for p, want := range map[string]bool{
		"/namespace/public/default/0x00000000_0x40000000":       true,
		"/pulsar/namespace/prop/cl/ns/0x00000000_0xffffffff":    true,
		"/loadbalance/leader":                                   true,
		"/namespace/public/default/0x00000000_0x4000000":        false,
		"/other/public/default/0x00000000_0x40000000":           false,
		"/zk/loadbalance/brokers/0x00000000_0x40000000/leaders": false,
	} {
		if _, _, ok := pulsarRoot(p); ok != want {
			t.Errorf("pulsarRoot(%s) = %v", p, ok)
		}
	}
}

func TestClickHouseDDL(t *testing.T) {
	if got := DDLHostName("ch1%2Eexample%2Ecom:9000"); got != "ch1.example.com:9000" {
		t.Errorf("host %q", got)
	}
	e := parseDDLEntry([]byte("version: 1\nquery: CREATE TABLE t ON CLUSTER c\nhosts: ['a%2Eb:9000','c:9000']\ninitiator: a%2Eb:9000\n"))
	if e.query != "CREATE TABLE t ON CLUSTER c" || len(e.hosts) != 2 || e.hosts[1] != "c:9000" || e.initiator != "a%2Eb:9000" {
		t.Errorf("entry %+v", e)
	}
	if task, ok := DDLTaskOf("/clickhouse/task_queue/ddl/query-0000000012/active"); !ok || task != "/clickhouse/task_queue/ddl/query-0000000012" {
		t.Errorf("task %q %v", task, ok)
	}
	if _, ok := DDLTaskOf("/clickhouse/task_queue/ddl/query-12/active"); ok {
		t.Error("a query- without ten digits taken for a task")
	}
}

func TestDecodeMesosMaster(t *testing.T) {
	m, ok := DecodeMesosMaster([]byte(`{"address":{"hostname":"m1","ip":"10.0.0.1","port":5050},"pid":"master@10.0.0.1:5050","version":"1.11.0"}`))
	if !ok || m.String() != "master m1 (master@10.0.0.1:5050) 1.11.0" {
		t.Errorf("%+v %v", m, ok)
	}
	if _, ok := DecodeMesosMaster([]byte("\x0a\x05proto")); ok {
		t.Error("an info_ protobuf decoded as JSON")
	}
}

// FuzzApplicationDecoders: no data makes a decoder of the new
// applications panic, whatever bytes a node holds.
func FuzzApplicationDecoders(f *testing.F) {
	f.Add([]byte("q:1700000000000:EXPLICIT:LOCK TABLE t:fe80::1"))
	f.Add([]byte("\xff\x00\x00\x00\x04abcdPBUF\x12\x03\x0a\x01h"))
	f.Add([]byte(`{"id":"c","simpleFields":{"SESSION_ID":"zz"},"listFields":{"HISTORY":["{CONTROLLER=c, TIME=x}"]}}`))
	f.Add([]byte(`{"nativeUrl":"pulsar://b:6650","httpUrl":"http://[::1"}`))
	f.Add([]byte("version: 1\nquery: q\nhosts: ['a\\'b:1']\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		DecodeHiveLockData(data)
		DecodeHBaseTableLock(data)
		DecodeHelixLeader(data)
		helixHistory(data, "k")
		if o, ok := DecodePulsarOwner(data); ok {
			_ = o.String() + o.registration()
		}
		parseDDLEntry(data)
		DecodeMesosMaster(data)
		serverSetEndpoint(data)
		DDLHostName(string(data))
	})
}

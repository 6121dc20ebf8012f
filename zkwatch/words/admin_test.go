package words

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The answers in testdata/admin_*.json were captured from Debian's
// ZooKeeper 3.8.0: two kazoo sessions, one holding an ephemeral node and
// an exists watch, the other a getData watch. Their session ids differ
// only past 2^53, where float64 would make them one.

func readAdmin(t *testing.T, name string, field AdminField) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	errText, err := readAdminAnswer(strings.NewReader(string(b)), field)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return errText
}

const (
	adminSession1 = int64(72057618466668544)
	adminSession2 = int64(72057618466668545)
)

func TestAdminConnectionsExactSessions(t *testing.T) {
	var conns []Connection
	readAdmin(t, "admin_connections.json", AdminConnections(&conns))
	if len(conns) != 2 {
		t.Fatalf("%d connections, want 2", len(conns))
	}
	c := conns[1]
	if c.Session != adminSession2 || conns[0].Session != adminSession1 {
		t.Errorf("sessions %d, %d: want %d, %d exactly", conns[0].Session, c.Session, adminSession1, adminSession2)
	}
	if c.Client != "127.0.0.1:40328" || c.ClientAddr.Port() != 40328 || c.LastOperation != "GETD" ||
		c.Timeout != 10*time.Second || !c.Established.Equal(time.UnixMilli(1795552421770)) || c.LastCxid != 1 || c.LastResponseMonoMs != 384830 {
		t.Errorf("connection %+v", c)
	}
}

func TestAdminWatchTablesAgree(t *testing.T) {
	byS, byP := map[int64][]string{}, map[int64][]string{}
	readAdmin(t, "admin_watches.json", AdminWatchTable(byS, nil))
	readAdmin(t, "admin_watches_by_path.json", AdminWatchTable(byP, nil))
	want := map[int64][]string{adminSession1: {"/locks/a/x"}, adminSession2: {"/locks/a"}}
	if !reflect.DeepEqual(byS, want) || !reflect.DeepEqual(byP, want) {
		t.Errorf("watches %v, watches_by_path %v, want %v", byS, byP, want)
	}
	kept := map[int64][]string{}
	readAdmin(t, "admin_watches.json", AdminWatchTable(kept, func(p string) bool { return p == "/locks/a" }))
	if !reflect.DeepEqual(kept, map[int64][]string{adminSession2: {"/locks/a"}}) {
		t.Errorf("kept %v", kept)
	}
}

func TestAdminDump(t *testing.T) {
	eph := Ephemerals{Owners: map[string]int64{}}
	at := map[int64]time.Time{}
	readAdmin(t, "admin_dump.json", func(key string, dec *json.Decoder) (bool, error) {
		if ok, err := AdminEphemerals(&eph, func(string) bool { return true }, func(string) bool { return true })(key, dec); ok {
			return ok, err
		}
		return AdminExpiry(at)(key, dec)
	})
	if eph.Nodes != 1 || eph.Sessions != 1 || eph.Parents["/locks/a"] != (EphemeralParent{Count: 1, Sample: "lock-0000000000"}) {
		t.Errorf("ephemerals %+v", eph)
	}
	if len(eph.Owners) != 1 || eph.Owners["/locks/a/lock-0000000000"] != adminSession1 {
		t.Errorf("owners %v, want /locks/a/lock-0000000000 owned by %d exactly", eph.Owners, adminSession1)
	}
	want := time.UnixMilli(395000)
	if len(at) != 2 || !at[adminSession1].Equal(want) || !at[adminSession2].Equal(want) {
		t.Errorf("expiries %v", at)
	}
}

func TestAdminServerStats(t *testing.T) {
	var st ServerStatus
	readAdmin(t, "admin_server_stats.json", AdminStatus(&st))
	if st.Mode != "standalone" || st.Version != "3.8.0" || st.NodeCount != 5 {
		t.Errorf("status %+v", st)
	}
}

func TestAdminNotServing(t *testing.T) {
	errText, err := readAdminAnswer(strings.NewReader(`{"command":"connections","error":"`+notServingReply+`"}`), AdminConnections(new([]Connection)))
	if err != nil || errText != notServingReply {
		t.Errorf("error text %q, err %v", errText, err)
	}
}

func TestAdminStreamUnavailable(t *testing.T) {
	notFound := httptest.NewServer(http.NotFoundHandler())
	defer notFound.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(notFound.URL, "http://"))
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := closed.Addr().String()
	closed.Close()
	_, closedPort, _ := net.SplitHostPort(closedAddr)
	for name, port := range map[string]string{"404": port, "closed port": closedPort} {
		p, _, _ := ParseAdminPorts(port)
		a := &AdminServer{Port: p}
		_, err := AdminStream(context.Background(), a, "127.0.0.1:2181", "cons", nil, AdminConnections(new([]Connection)))
		if !errors.Is(err, ErrAdminUnavailable) {
			t.Errorf("%s: err %v, want ErrAdminUnavailable", name, err)
		}
	}
}

func TestParseAdminPorts(t *testing.T) {
	tests := []struct {
		in     string
		common int
		each   map[string]int
		bad    bool
	}{
		{in: "8080", common: 8080},
		{in: "9090,zk1:2181=8081, zk2:2181=8082", common: 9090, each: map[string]int{"zk1:2181": 8081, "zk2:2181": 8082}},
		{in: "127.0.0.1:2181=18080", each: map[string]int{"127.0.0.1:2181": 18080}},
		{in: "http", bad: true},
		{in: "70000", bad: true},
		{in: "zk1=8081", bad: true},
	}
	for _, tt := range tests {
		common, each, err := ParseAdminPorts(tt.in)
		if (err != nil) != tt.bad || common != tt.common || !reflect.DeepEqual(each, tt.each) {
			t.Errorf("ParseAdminPorts(%q) = %d, %v, %v", tt.in, common, each, err)
		}
	}
	a := &AdminServer{Port: 9090, Ports: map[string]int{"zk1:2181": 8081}, HTTPS: true}
	if got := a.URL("zk1:2181", "dump"); got != "https://zk1:8081/commands/dump" {
		t.Errorf("URL %q", got)
	}
	if got := a.URL("[::1]:2181", "dump"); got != "https://[::1]:9090/commands/dump" {
		t.Errorf("URL %q", got)
	}
}

// TestWayMemory: a refused word is remembered for good; a missing
// AdminServer for AdminRetry only, the time of its first finding kept
// while the same finding is handed back.
func TestWayMemory(t *testing.T) {
	m := NewWayMemory()
	refused := fmt.Errorf("%w: cons", ErrFourLetterRefused)
	missing := fmt.Errorf("%w at x: connection refused", ErrAdminUnavailable)
	m.learn("a:1", "cons", "", refused, missing)
	if r, noAdmin := m.recall("a:1", "cons"); !r || noAdmin != missing {
		t.Fatalf("recall %v, %v", r, noAdmin)
	}
	if r, _ := m.recall("a:1", "srvr"); r {
		t.Error("srvr taken as refused")
	}
	m.learn("a:1", "dump", "", refused, missing) // the same finding again
	first := m.noAdmin["a:1"].At
	m.noAdmin["a:1"] = MissingAdmin{Err: missing, At: first.Add(-AdminRetry)}
	if r, noAdmin := m.recall("a:1", "cons"); !r || noAdmin != nil {
		t.Errorf("after AdminRetry: refused %v, no AdminServer %v; want the AdminServer asked again", r, noAdmin)
	}
	m.learn("a:1", "cons", "", nil, errors.New("timeout")) // a failure, not a missing AdminServer
	if _, noAdmin := m.recall("a:1", "cons"); noAdmin != nil {
		t.Errorf("a timeout remembered as no AdminServer: %v", noAdmin)
	}
}

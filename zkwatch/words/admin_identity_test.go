package words

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// fakeAdmin serves an AdminServer's configuration (conf, or a status in
// its place) and connections commands, counting the connections asked.
func fakeAdmin(t *testing.T, conf string, status int) (*AdminServer, *int) {
	t.Helper()
	asked := new(int)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if status != http.StatusOK {
			w.WriteHeader(status)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/commands/configuration":
			w.Write([]byte(conf))
		case "/commands/connections":
			*asked++
			w.Write([]byte(`{"connections":[],"secure_connections":[],"command":"connections","error":null}`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	port, _ := strconv.Atoi(srv.URL[strings.LastIndexByte(srv.URL, ':')+1:])
	return &AdminServer{Port: port}, asked
}

func TestAdminAnswersOnlyForItsOwnMember(t *testing.T) {
	const own = `{"client_port":2181,"server_id":3,"tick_time":2000,"command":"configuration","error":null}`
	tests := []struct {
		name   string
		conf   string
		status int
		member string
		want   error // nil: the answer is the member's
		text   string
	}{
		{name: "own", conf: own, status: 200, member: "127.0.0.1:2181"},
		{name: "secure port", conf: `{"client_port":2181,"secure_client_port":2281,"server_id":1,"command":"configuration","error":null}`, status: 200, member: "127.0.0.1:2281"},
		{name: "another server's", conf: own, status: 200, member: "127.0.0.1:2182", want: ErrAdminElsewhere, text: "is another server's (client port 2181, server id 3), not 127.0.0.1:2182's"},
		{name: "no client port", conf: `{"server_id":0,"command":"configuration","error":null}`, status: 200, member: "127.0.0.1:2181", want: ErrAdminUntied, text: "names no client port"},
		{name: "null client port", conf: `{"client_port":null,"command":"configuration","error":null}`, status: 200, member: "127.0.0.1:2181", want: ErrAdminUntied},
		{name: "unauthorized", status: http.StatusUnauthorized, member: "127.0.0.1:2181", want: ErrAdminAuth, text: "requires authentication (HTTP 401 Unauthorized)"},
		{name: "forbidden", status: http.StatusForbidden, member: "127.0.0.1:2181", want: ErrAdminAuth},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, asked := fakeAdmin(t, tc.conf, tc.status)
			_, err := AdminStream(context.Background(), a, tc.member, "cons", nil, AdminConnections(new([]Connection)))
			if tc.want == nil {
				if err != nil || *asked != 1 {
					t.Fatalf("err %v, connections asked %d times", err, *asked)
				}
				return
			}
			if !errors.Is(err, tc.want) || !errors.Is(err, ErrAdminUnavailable) || !strings.Contains(err.Error(), tc.text) {
				t.Fatalf("err %v, want %v (and ErrAdminUnavailable) saying %q", err, tc.want, tc.text)
			}
			if *asked != 0 {
				t.Errorf("connections asked %d times of an AdminServer not proven the member's", *asked)
			}
			if fix := AdminFixFor(err); strings.Contains(fix, "admin.enableServer") {
				t.Errorf("fix %q tells to turn on an AdminServer that is on", fix)
			}
		})
	}
}

func TestAdminConfigurationProvesItself(t *testing.T) {
	a, _ := fakeAdmin(t, `{"client_port":2181,"server_id":3,"command":"configuration","error":null}`, 200)
	id := -1
	read := func(key string, dec *json.Decoder) (bool, error) {
		if key != "server_id" {
			return false, nil
		}
		return true, dec.Decode(&id)
	}
	if _, err := AdminStream(context.Background(), a, "127.0.0.1:2181", "conf", nil, read); err != nil || id != 3 {
		t.Errorf("own configuration: err %v, server id %d", err, id)
	}
	if _, err := AdminStream(context.Background(), a, "127.0.0.1:2999", "conf", nil, read); !errors.Is(err, ErrAdminElsewhere) {
		t.Errorf("another's configuration: err %v, want ErrAdminElsewhere", err)
	}
}

package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// doctor says where a member keeps its data and, on its host, how much
// history its logs hold: as far as the transactions just made.
func TestIntegrationDoctorSaysTheDataDirectoryAndItsHistory(t *testing.T) {
	t.Parallel()
	srv := zktest.Start(t, zktest.WithConfig("snapCount=20"))
	conn := srv.Connect(t)
	for i := range 30 {
		if _, err := conn.Create(fmt.Sprintf("/n%d", i), nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
			t.Fatal(err)
		}
	}
	_, st, err := conn.Get("/n29")
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "doctor", "--json", "--server", srv.Addr(), "--admin-port", "off")
	if code != exitOK {
		t.Fatalf("doctor exited %d: %s", code, errOut)
	}
	var d struct {
		Members []struct {
			Data *struct {
				DataDir    string `json:"data_dir"`
				OnThisHost bool   `json:"on_this_host"`
				History    *struct {
					FirstZxid string `json:"first_zxid"`
					LastZxid  string `json:"last_zxid"`
					Logs      int    `json:"logs"`
				} `json:"history"`
			} `json:"data"`
		} `json:"members"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil || len(d.Members) != 1 || d.Members[0].Data == nil {
		t.Fatalf("doctor --json: %v\n%s", err, out)
	}
	data := d.Members[0].Data
	if want := filepath.Join(srv.DataDir(), "version-2"); data.DataDir != want || !data.OnThisHost {
		t.Errorf("data directory %q (here %v), want %q", data.DataDir, data.OnThisHost, want)
	}
	// The last transaction is at least the last create (a session's
	// close may follow it).
	var last int64
	if h := data.History; h == nil || h.Logs < 2 || h.FirstZxid != "0x1" {
		t.Fatalf("history %+v, want from 0x1 over several logs", h)
	} else if _, err := fmt.Sscanf(h.LastZxid, "0x%x", &last); err != nil || last < st.Czxid {
		t.Errorf("last zxid %s, want at least %#x", h.LastZxid, st.Czxid)
	}
	text, _, _ := run(t, "doctor", "--server", srv.Addr(), "--admin-port", "off")
	if !strings.Contains(text, "data directory     "+data.DataDir+" (conf)") || !strings.Contains(text, "history            zxids 0x1 to ") {
		t.Errorf("doctor's text:\n%s", text)
	}
}

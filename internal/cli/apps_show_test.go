package cli

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/go-zookeeper/zk"
)

// appShowJSON mirrors the parts of `show --json` an application's lock adds.
type appShowJSON struct {
	Locks []struct {
		Path         string   `json:"path"`
		Recipe       string   `json:"recipe"`
		Holders      int      `json:"holders"`
		Waiters      int      `json:"waiters"`
		Hidden       []string `json:"hidden_waiters"`
		Participants []struct {
			Node     string  `json:"node"`
			Role     string  `json:"role"`
			Session  *string `json:"session"`
			Watches  *string `json:"watches"`
			Identity string  `json:"identity"`
			Mode     string  `json:"mode"`
			Note     string  `json:"note"`
			Eph      bool    `json:"ephemeral"`
			Children bool    `json:"watches_children"`
		} `json:"participants"`
		Anomalies []struct {
			Kind   string   `json:"kind"`
			Nodes  []string `json:"nodes"`
			Detail string   `json:"detail"`
		} `json:"anomalies"`
		App *struct {
			Name          string  `json:"name"`
			What          string  `json:"what"`
			Holder        string  `json:"holder"`
			HolderSession *string `json:"holder_session"`
			Token         *struct {
				Name    string `json:"name"`
				Path    string `json:"path"`
				Value   string `json:"value"`
				Version *int32 `json:"zk_version"`
			} `json:"token"`
			Members []struct {
				Session  *string `json:"session"`
				Identity string  `json:"identity"`
				Path     string  `json:"path"`
				Role     string  `json:"role"`
			} `json:"members"`
			Notes []string `json:"notes"`
		} `json:"app"`
	} `json:"locks"`
}

func showApp(t *testing.T, server string, path string) appShowJSON {
	t.Helper()
	out, errOut, code := run(t, "show", "--json", "--server", server, path)
	if code != exitOK {
		t.Fatalf("show exited %d: %s", code, errOut)
	}
	var s appShowJSON
	if err := json.Unmarshal([]byte(out), &s); err != nil || len(s.Locks) != 1 {
		t.Fatalf("show --json: %v\n%s", err, out)
	}
	return s
}

func sid(c *zk.Conn) string { return fmt.Sprintf("0x%x", uint64(c.SessionID())) }

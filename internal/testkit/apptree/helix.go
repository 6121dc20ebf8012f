package apptree

import (
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"github.com/go-zookeeper/zk"
)

// HelixController is one Helix controller process.
type HelixController struct {
	Instance string // its instance name ("ctrl1_12000")
	Conn     *zk.Conn
}

// HelixElect runs Helix's controller election of cluster as
// DistributedLeaderElection does: the cluster's CONTROLLER node is there
// (persistent, made by the cluster's setup); the first controller creates
// CONTROLLER/LEADER (ephemeral, a ZNRecord naming it, with its session as
// SESSION_ID) and appends itself to CONTROLLER/HISTORY; the others find
// the node there and watch its data. history names the leaders before it,
// oldest first, with their times in ms. sessionID, when not empty,
// replaces the leader's own session in SESSION_ID.
func HelixElect(t testing.TB, cluster string, controllers []HelixController, history []string, times []int64, sessionID string) {
	t.Helper()
	leader := controllers[0]
	MkdirAll(t, leader.Conn, "/"+cluster+"/CONTROLLER")
	MkdirAll(t, leader.Conn, "/"+cluster+"/LIVEINSTANCES")
	if sessionID == "" {
		sessionID = strconv.FormatUint(uint64(leader.Conn.SessionID()), 16)
	}
	record := map[string]any{"id": leader.Instance,
		"simpleFields": map[string]string{"HELIX_VERSION": "1.0.4", "LIVE_INSTANCE": "4242@" + leader.Instance, "SESSION_ID": sessionID},
		"listFields":   map[string][]string{}, "mapFields": map[string]map[string]string{}}
	data, _ := json.MarshalIndent(record, "", "  ")
	Create(t, leader.Conn, "/"+cluster+"/CONTROLLER/LEADER", data, zk.FlagEphemeral)
	var entries []string
	for i, h := range append(history, leader.Instance) {
		ms := int64(1700000000000)
		if i < len(times) {
			ms = times[i]
		}
		entries = append(entries, fmt.Sprintf("{DATE=2023-11-14-22:13:20, CONTROLLER=%s, TIME=%d, VERSION=1.0.4}", h, ms))
	}
	hist, _ := json.MarshalIndent(map[string]any{"id": "HISTORY", "simpleFields": map[string]string{},
		"listFields": map[string][]string{cluster: append(history, leader.Instance), "HISTORY": entries}, "mapFields": map[string]any{}}, "", "  ")
	p := "/" + cluster + "/CONTROLLER/HISTORY"
	if _, err := leader.Conn.Set(p, hist, -1); err == zk.ErrNoNode {
		Create(t, leader.Conn, p, hist, 0)
	} else if err != nil {
		t.Fatalf("apptree: helix history: %v", err)
	}
	for _, c := range controllers[1:] {
		WatchData(t, c.Conn, "/"+cluster+"/CONTROLLER/LEADER")
	}
}

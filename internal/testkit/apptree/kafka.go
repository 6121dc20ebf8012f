package apptree

import (
	"fmt"
	"testing"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// KafkaBrokerJSON is broker id's registration under /brokers/ids, as
// KafkaZkClient.registerBroker writes it (a PLAINTEXT listener on
// kafka<id>:9092).
func KafkaBrokerJSON(id int) []byte {
	return fmt.Appendf(nil, `{"features":{},"listener_security_protocol_map":{"PLAINTEXT":"PLAINTEXT"},"endpoints":["PLAINTEXT://kafka%d:9092"],"jmx_port":-1,"port":9092,"host":"kafka%d","version":5,"timestamp":"1700000000000"}`, id, id)
}

// Kafka builds a ZooKeeper-mode Kafka cluster's tree under base (its
// chroot): the brokers registered each register on a session of their
// own; broker controllerID's session wins the controller election as
// KafkaZkClient does, in one multi with the epoch's bump; the other
// brokers watch /controller with exists. A config change notification (a
// sequential node that is no lock) sits beside them. It returns each
// broker's session.
func Kafka(t testing.TB, zks *zktest.Server, base string, controllerID int, registered ...int) map[int]*zk.Conn {
	t.Helper()
	admin := zks.Connect(t)
	for _, dir := range []string{base + "/brokers/ids", base + "/config/changes", base + "/admin"} {
		MkdirAll(t, admin, dir)
	}
	Create(t, admin, base+"/controller_epoch", []byte("5"), 0)
	Create(t, admin, base+"/config/changes/config_change_", []byte(`{"version":2,"entity_path":"topics/t1"}`), zk.FlagSequence)
	sessions := map[int]*zk.Conn{}
	for _, id := range registered {
		c := zks.Connect(t)
		sessions[id] = c
		Create(t, c, fmt.Sprintf("%s/brokers/ids/%d", base, id), KafkaBrokerJSON(id), zk.FlagEphemeral)
	}
	winner := sessions[controllerID]
	if winner == nil {
		winner = zks.Connect(t)
		sessions[controllerID] = winner
	}
	data := fmt.Appendf(nil, `{"version":2,"brokerid":%d,"timestamp":"1700000000000","kraftControllerEpoch":-1}`, controllerID)
	if _, err := winner.Multi(
		&zk.CreateRequest{Path: base + "/controller", Data: data, Acl: zk.WorldACL(zk.PermAll), Flags: zk.FlagEphemeral},
		&zk.SetDataRequest{Path: base + "/controller_epoch", Data: []byte("6"), Version: 0},
	); err != nil {
		t.Fatalf("apptree: kafka controller election: %v", err)
	}
	for id, c := range sessions {
		if id != controllerID {
			WatchData(t, c, base+"/controller")
		}
	}
	return sessions
}

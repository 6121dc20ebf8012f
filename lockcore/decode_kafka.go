package lockcore

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// KafkaController is the data of Kafka's /controller node.
type KafkaController struct {
	// Version is the data's format version (1 until 3.3, 2 since 3.4).
	Version int
	// BrokerID is the controller's broker id.
	BrokerID int
	// Timestamp is when it was elected, in epoch milliseconds as text.
	Timestamp string
	// KRaftControllerEpoch is set (not -1) while a KRaft controller holds
	// the role during a migration; nil in version 1.
	KRaftControllerEpoch *int
}

// DecodeKafkaController decodes /controller's JSON; false when the data is
// not Kafka's.
func DecodeKafkaController(data []byte) (KafkaController, bool) {
	var raw struct {
		Version   *int            `json:"version"`
		BrokerID  *int            `json:"brokerid"`
		Timestamp json.RawMessage `json:"timestamp"`
		KRaft     *int            `json:"kraftControllerEpoch"`
	}
	if err := json.Unmarshal(data, &raw); err != nil || raw.Version == nil || raw.BrokerID == nil {
		return KafkaController{}, false
	}
	c := KafkaController{Version: *raw.Version, BrokerID: *raw.BrokerID, KRaftControllerEpoch: raw.KRaft}
	var ts string
	if json.Unmarshal(raw.Timestamp, &ts) == nil {
		c.Timestamp = ts
	}
	return c, true
}

// KafkaBroker is a broker's registration, /brokers/ids/<id>.
type KafkaBroker struct {
	Host      string
	Port      int
	Endpoints []string
	Rack      string
}

// Address is the broker's first listener as host:port, or its first
// endpoint when host is not set (brokers without a PLAINTEXT listener).
func (b KafkaBroker) Address() string {
	if b.Host != "" {
		return fmt.Sprintf("%s:%d", b.Host, b.Port)
	}
	if len(b.Endpoints) > 0 {
		return b.Endpoints[0]
	}
	return ""
}

// DecodeKafkaBroker decodes a broker registration's JSON (versions 1 to
// 5); false when the data is not Kafka's.
func DecodeKafkaBroker(data []byte) (KafkaBroker, bool) {
	var raw struct {
		Version   *int     `json:"version"`
		Host      string   `json:"host"`
		Port      int      `json:"port"`
		Endpoints []string `json:"endpoints"`
		Rack      string   `json:"rack"`
	}
	if err := json.Unmarshal(data, &raw); err != nil || raw.Version == nil {
		return KafkaBroker{}, false
	}
	return KafkaBroker{Host: raw.Host, Port: raw.Port, Endpoints: raw.Endpoints, Rack: raw.Rack}, true
}

// DecodeKafkaEpoch decodes /controller_epoch: the epoch as decimal text.
func DecodeKafkaEpoch(data []byte) (int, bool) {
	v, err := strconv.Atoi(string(data))
	return v, err == nil
}

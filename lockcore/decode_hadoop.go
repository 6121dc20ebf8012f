package lockcore

import (
	"fmt"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
)

// HadoopActive is an active's identity as ActiveStandbyElector stores it:
// HDFS's ActiveNodeInfo or YARN's ActiveRMInfoProto.
type HadoopActive struct {
	// NameNode is true for HDFS's ActiveNodeInfo (nameservice, NameNode
	// id, host, port, ZKFC port), false for YARN's (cluster id, RM id).
	NameNode bool
	// Cluster is the nameservice id (HDFS) or cluster id (YARN).
	Cluster string
	// ID is the NameNode id or ResourceManager id.
	ID       string
	Hostname string
	Port     int32
	ZKFCPort int32
}

// String names the active in Hadoop's terms.
func (h HadoopActive) String() string {
	if h.NameNode {
		return fmt.Sprintf("NameNode %s at %s:%d (nameservice %s, ZKFC port %d)", h.ID, h.Hostname, h.Port, h.Cluster, h.ZKFCPort)
	}
	return fmt.Sprintf("ResourceManager %s (cluster %s)", h.ID, h.Cluster)
}

// DecodeHadoopActive decodes the protobuf of ActiveStandbyElectorLock or
// ActiveBreadCrumb: ActiveNodeInfo {1 nameserviceId, 2 namenodeId, 3
// hostname, 4 port, 5 zkfcPort} or ActiveRMInfoProto {1 clusterId, 2
// rmId}. It is false unless every byte is a well-formed field and the id is
// there; fields a newer release added are skipped.
func DecodeHadoopActive(data []byte) (HadoopActive, bool) {
	var h HadoopActive
	var hasHost, hasPort bool
	ok := eachField(data, func(num protowire.Number, typ protowire.Type, v uint64, b []byte) bool {
		switch typ {
		case protowire.BytesType:
			if !utf8.Valid(b) {
				return false
			}
			switch num {
			case 1:
				h.Cluster = string(b)
			case 2:
				h.ID = string(b)
			case 3:
				h.Hostname, hasHost = string(b), true
			}
		case protowire.VarintType:
			switch num {
			case 4:
				h.Port, hasPort = int32(v), true
			case 5:
				h.ZKFCPort = int32(v)
			}
		}
		return true
	})
	if !ok {
		return HadoopActive{}, false
	}
	h.NameNode = hasHost && hasPort
	return h, h.ID != ""
}

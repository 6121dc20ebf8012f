package lockcore

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// HBaseServerName is HBase's ServerName: host, port and start code.
type HBaseServerName struct {
	Host      string
	Port      uint32
	StartCode uint64
}

// String is ServerName.toString(): "host,port,startcode", the name of a
// backup master's node.
func (s HBaseServerName) String() string {
	return fmt.Sprintf("%s,%d,%d", s.Host, s.Port, s.StartCode)
}

// HBaseMaster is the data of HBase's master and backup-masters nodes.
type HBaseMaster struct {
	Server     HBaseServerName
	InfoPort   uint32
	RPCVersion uint32
	// ProcessID is the writer's ZooKeeper identifier from the ZKMetadata
	// prefix (e.g. "master:16000"); empty when the data had none.
	ProcessID string
}

// StripHBaseMetadata removes ZKMetadata from data as HBase's
// removeMetaData does (only when byte 0 is 0xFF) and returns the process
// identifier it carried, without the salt. ok is false for a prefix whose
// length runs past the data.
func StripHBaseMetadata(data []byte) (rest []byte, processID string, ok bool) {
	if len(data) == 0 || data[0] != hbaseMetaMagic {
		return data, "", true
	}
	if len(data) < 5 {
		return nil, "", false
	}
	idLen := int(int32(binary.BigEndian.Uint32(data[1:5])))
	if idLen < 0 || 5+idLen > len(data) {
		return nil, "", false
	}
	id := data[5 : 5+idLen]
	if len(id) >= hbaseSaltLen {
		id = id[:len(id)-hbaseSaltLen]
	}
	return data[5+idLen:], string(id), true
}

// DecodeHBaseMaster decodes a master or backup-masters node: metadata,
// "PBUF", then Master {1 ServerName {1 host, 2 port, 3 start_code}, 2
// rpc_version, 3 info_port}. It is false unless it is all well formed.
func DecodeHBaseMaster(data []byte) (HBaseMaster, bool) {
	body, id, ok := StripHBaseMetadata(data)
	if !ok || !strings.HasPrefix(string(body), hbasePBMagic) {
		return HBaseMaster{}, false
	}
	m := HBaseMaster{ProcessID: id}
	ok = eachField(body[len(hbasePBMagic):], func(num protowire.Number, _ protowire.Type, v uint64, b []byte) bool {
		switch num {
		case 1:
			return b != nil && decodeServerName(b, &m.Server)
		case 2:
			m.RPCVersion = uint32(v)
		case 3:
			m.InfoPort = uint32(v)
		}
		return true
	})
	return m, ok && m.Server.Host != ""
}

func decodeServerName(b []byte, s *HBaseServerName) bool {
	return eachField(b, func(num protowire.Number, _ protowire.Type, v uint64, raw []byte) bool {
		switch num {
		case 1:
			s.Host = string(raw)
		case 2:
			s.Port = uint32(v)
		case 3:
			s.StartCode = v
		}
		return true
	})
}

// ParseHBaseServerName reads "host,port,startcode", a backup master's
// node name.
func ParseHBaseServerName(name string) (HBaseServerName, bool) {
	parts := strings.Split(name, hbaseServerNameSeps)
	if len(parts) != 3 || parts[0] == "" {
		return HBaseServerName{}, false
	}
	port, err1 := strconv.ParseUint(parts[1], 10, 32)
	start, err2 := strconv.ParseUint(parts[2], 10, 64)
	if err1 != nil || err2 != nil {
		return HBaseServerName{}, false
	}
	return HBaseServerName{Host: parts[0], Port: uint32(port), StartCode: start}, true
}

package jute

// The transaction log's and snapshots' records (zookeeper.jute's
// org.apache.zookeeper.txn and server.persistence).

// Magic numbers of a FileHeader, and the only version there is.
const (
	LogMagic    = 0x5a4b4c47 // "ZKLG": a transaction log
	SnapMagic   = 0x5a4b534e // "ZKSN": a snapshot
	FileVersion = 2
)

// FileHeader begins a transaction log and a snapshot.
type FileHeader struct {
	Magic   int32
	Version int32
	DBID    int64
}

// ReadFileHeader decodes a FileHeader.
func ReadFileHeader(r *Reader) FileHeader {
	return FileHeader{Magic: r.Int(), Version: r.Int(), DBID: r.Long()}
}

// FileHeaderSize is a FileHeader's length in bytes.
const FileHeaderSize = 16

// TxnHeader begins every transaction: the session that asked for it
// (ClientID; the server's own for a session it expires), the request's
// cxid (0 for the server's session tracker), its zxid, the leader's clock
// in ms when it was proposed, and its type (an opcode).
type TxnHeader struct {
	ClientID int64
	Cxid     int32
	Zxid     int64
	Time     int64
	Type     int32
}

// ReadTxnHeader decodes a TxnHeader.
func ReadTxnHeader(r *Reader) TxnHeader {
	return TxnHeader{ClientID: r.Long(), Cxid: r.Int(), Zxid: r.Long(), Time: r.Long(), Type: r.Int()}
}

// Ephemeral owners that are not sessions (EphemeralType): a container
// node's, and a TTL node's high byte.
const (
	OwnerContainer = -0x8000000000000000 // Long.MIN_VALUE
	ownerTTLMask   = -0x100000000000000  // 0xff00000000000000
)

// IsSessionOwner reports whether an ephemeral owner is a session (not 0,
// not a container's or a TTL node's mark).
func IsSessionOwner(owner int64) bool {
	return owner != 0 && owner != OwnerContainer && owner&ownerTTLMask != ownerTTLMask
}

// Txn is one transaction's body, as far as a reader of nodes needs it.
// Fields a type does not carry are zero.
type Txn struct {
	Type int32
	// Path: the node created, deleted, set or checked.
	Path string
	// Data of a create or setData.
	Data []byte
	// Ephemeral: a create (1, 15) of a node owned by the session.
	Ephemeral bool
	// ParentCVersion of a create: the parent's child version after it.
	ParentCVersion int32
	// Version of a setData, setACL or check.
	Version int32
	// TTL of a createTTL, in ms.
	TTL int64
	// Timeout of a createSession, in ms.
	Timeout int32
	// Closed lists the ephemeral nodes a closeSession removed; nil when the
	// record does not carry them (before 3.6, or turned off).
	Closed []string
	// Err of an error transaction (a failed part of a multi).
	Err int32
	// Ops of a multi, in order.
	Ops []Txn
}

// ReadTxn decodes the body of a transaction of type typ. A type without a
// body known here (sync-like records, reconfig's data) reads nothing.
// What follows the body (a 3.6+ TxnDigest) is left unread.
func ReadTxn(r *Reader, typ int32) Txn {
	t := Txn{Type: typ}
	switch typ {
	case OpCreate, OpCreate2:
		t.Path, t.Data = r.String(), r.Buffer()
		skipACLs(r)
		t.Ephemeral, t.ParentCVersion = r.Bool(), r.Int()
	case OpCreateContainer:
		t.Path, t.Data = r.String(), r.Buffer()
		skipACLs(r)
		t.ParentCVersion = r.Int()
	case OpCreateTTL:
		t.Path, t.Data = r.String(), r.Buffer()
		skipACLs(r)
		t.ParentCVersion, t.TTL = r.Int(), r.Long()
	case OpDelete, OpDeleteContainer:
		t.Path = r.String()
	case OpSetData:
		t.Path, t.Data, t.Version = r.String(), r.Buffer(), r.Int()
	case OpSetACL:
		t.Path = r.String()
		skipACLs(r)
		t.Version = r.Int()
	case OpCheck:
		t.Path, t.Version = r.String(), r.Int()
	case OpCreateSession:
		t.Timeout = r.Int()
	case OpCloseSession:
		t.Closed = readClosed(r)
	case OpError:
		t.Err = r.Int()
	case OpMulti:
		n := r.Count(8)
		for i := 0; i < n && r.Err() == nil; i++ {
			sub := r.Int()
			body := NewReader(r.Buffer())
			op := ReadTxn(body, sub)
			if r.Err() == nil && body.Err() != nil {
				r.fail(body.Err())
			}
			t.Ops = append(t.Ops, op)
		}
	}
	return t
}

// skipACLs reads past a vector of ACL entries, which a Txn does not keep,
// without making their strings: every create carries one.
func skipACLs(r *Reader) {
	n := r.Count(12)
	for i := 0; i < n && r.Err() == nil; i++ {
		r.Int()
		r.Buffer()
		r.Buffer()
	}
}

// digestSize is a TxnDigest's length: int version, long treeDigest.
const digestSize = 12

// readClosed reads a closeSession's body when the record has one. Before
// 3.6 (or with zookeeper.closeSessionTxn.enabled false) it has none, and a
// digest may follow the header directly: nothing left, or exactly a
// digest that does not read as a body of paths, is no body.
func readClosed(r *Reader) []string {
	left := r.Remaining()
	if left == 0 {
		return nil
	}
	probe := NewReader(r.buf[r.off:])
	paths := readVector(probe, 4, (*Reader).String)
	rest := probe.Remaining()
	ok := probe.Err() == nil && (rest == 0 || rest == digestSize)
	for _, p := range paths {
		if len(p) == 0 || p[0] != '/' {
			ok = false
		}
	}
	if !ok {
		if left == digestSize {
			return nil
		}
		r.fail(probe.Err())
		return nil
	}
	r.off += probe.Offset()
	return paths
}

// DataNode is one node of a snapshot: its data, its ACL's number in the
// snapshot's ACL cache, and its stat.
type DataNode struct {
	Data []byte
	ACL  int64
	Stat StatPersisted
}

// ReadDataNode decodes a DataNode.
func ReadDataNode(r *Reader) DataNode {
	return DataNode{Data: r.Buffer(), ACL: r.Long(), Stat: ReadStatPersisted(r)}
}

package jute

// RequestHeader begins every client request after the connect.
type RequestHeader struct {
	Xid    int32
	OpCode int32
}

// Write encodes h.
func (h RequestHeader) Write(w *Writer) {
	w.Int(h.Xid)
	w.Int(h.OpCode)
}

// ReplyHeader begins every server reply after the connect: the xid of the
// request it answers (or a reserved xid), the last zxid the server had
// applied, and an error code (ErrOK, …).
type ReplyHeader struct {
	Xid  int32
	Zxid int64
	Err  int32
}

// ReadReplyHeader decodes a reply header.
func ReadReplyHeader(r *Reader) ReplyHeader {
	return ReplyHeader{Xid: r.Int(), Zxid: r.Long(), Err: r.Int()}
}

// ConnectRequest opens or resumes a session.
type ConnectRequest struct {
	ProtocolVersion int32
	LastZxidSeen    int64
	TimeoutMs       int32
	SessionID       int64
	Passwd          []byte
	ReadOnly        bool
}

// Write encodes c.
func (c ConnectRequest) Write(w *Writer) {
	w.Int(c.ProtocolVersion)
	w.Long(c.LastZxidSeen)
	w.Int(c.TimeoutMs)
	w.Long(c.SessionID)
	if c.Passwd == nil {
		c.Passwd = make([]byte, 16)
	}
	w.Buffer(c.Passwd)
	w.Bool(c.ReadOnly)
}

// ConnectResponse is the server's answer to a ConnectRequest. A session ID
// of 0 (and a timeout of 0) means the session is gone: it expired.
type ConnectResponse struct {
	ProtocolVersion int32
	TimeoutMs       int32
	SessionID       int64
	Passwd          []byte
	ReadOnly        bool
}

// ReadConnectResponse decodes a connect response. Servers before 3.4
// leave out the read-only flag; it then reads as false.
func ReadConnectResponse(r *Reader) ConnectResponse {
	c := ConnectResponse{ProtocolVersion: r.Int(), TimeoutMs: r.Int(), SessionID: r.Long(), Passwd: r.Buffer()}
	if r.Err() == nil && r.Remaining() > 0 {
		c.ReadOnly = r.Bool()
	}
	return c
}

// ID is an identity in an ACL or of a session: a scheme ("world",
// "digest", "sasl", "ip", "x509", "auth") and its id.
type ID struct {
	Scheme string
	ID     string
}

// ReadID decodes an Id.
func ReadID(r *Reader) ID { return ID{Scheme: r.String(), ID: r.String()} }

// ACL permission bits.
const (
	PermRead   = 1 << 0
	PermWrite  = 1 << 1
	PermCreate = 1 << 2
	PermDelete = 1 << 3
	PermAdmin  = 1 << 4
	PermAll    = PermRead | PermWrite | PermCreate | PermDelete | PermAdmin
)

// ACL is one entry of a node's access control list.
type ACL struct {
	Perms int32
	ID    ID
}

// ReadACLs decodes a vector of ACL entries.
func ReadACLs(r *Reader) []ACL {
	return readVector(r, 12, func(r *Reader) ACL { return ACL{Perms: r.Int(), ID: ReadID(r)} })
}

// StatPersisted is a node's stat as the snapshot keeps it (no data length
// or child count: the server derives them).
type StatPersisted struct {
	Czxid          int64
	Mzxid          int64
	Ctime          int64 // ms since the epoch, the leader's clock
	Mtime          int64
	Version        int32
	Cversion       int32
	Aversion       int32
	EphemeralOwner int64
	Pzxid          int64
}

// ReadStatPersisted decodes a StatPersisted.
func ReadStatPersisted(r *Reader) StatPersisted {
	return StatPersisted{Czxid: r.Long(), Mzxid: r.Long(), Ctime: r.Long(), Mtime: r.Long(),
		Version: r.Int(), Cversion: r.Int(), Aversion: r.Int(), EphemeralOwner: r.Long(), Pzxid: r.Long()}
}

// WatcherEvent is a notification's body: a watch fired on Path.
type WatcherEvent struct {
	Type  int32
	State int32
	Path  string
}

// ReadWatcherEvent decodes a WatcherEvent.
func ReadWatcherEvent(r *Reader) WatcherEvent {
	return WatcherEvent{Type: r.Int(), State: r.Int(), Path: r.String()}
}

// ClientInfo is one identity a whoAmI answer gives the session.
type ClientInfo struct {
	AuthScheme string
	User       string
}

// ReadClientInfos decodes a whoAmI response's vector of ClientInfo.
func ReadClientInfos(r *Reader) []ClientInfo {
	return readVector(r, 8, func(r *Reader) ClientInfo { return ClientInfo{AuthScheme: r.String(), User: r.String()} })
}

// readVector decodes a vector whose elements take at least min bytes each
// (see Reader.Count), each by read, stopping at the first error.
func readVector[T any](r *Reader, min int, read func(*Reader) T) []T {
	n := r.Count(min)
	out := make([]T, 0, n)
	for i := 0; i < n && r.Err() == nil; i++ {
		out = append(out, read(r))
	}
	return out
}

// AddWatchRequest sets a persistent (or persistent recursive) watch on
// Path (opcode OpAddWatch, ZooKeeper 3.6+); Mode is AddWatchPersistent or
// AddWatchPersistentRecursive. The reply carries no body.
type AddWatchRequest struct {
	Path string
	Mode int32
}

// Write encodes a.
func (a AddWatchRequest) Write(w *Writer) {
	w.String(a.Path)
	w.Int(a.Mode)
}

// RemoveWatchesRequest removes the session's watches of one type on Path
// (opcode OpRemoveWatches); Type is a Watcher… constant. The reply
// carries no body; ErrNoWatcher when there was none.
type RemoveWatchesRequest struct {
	Path string
	Type int32
}

// Write encodes r.
func (r RemoveWatchesRequest) Write(w *Writer) {
	w.String(r.Path)
	w.Int(r.Type)
}

// AuthPacket adds a credential to a session (opcode OpAuth, sent with
// XidAuth): Type is 0, Scheme "digest" with Auth "user:password", say.
type AuthPacket struct {
	Type   int32
	Scheme string
	Auth   []byte
}

// Write encodes a.
func (a AuthPacket) Write(w *Writer) {
	w.Int(a.Type)
	w.String(a.Scheme)
	w.Buffer(a.Auth)
}

package jute

import "strconv"

// Request opcodes (zookeeper.jute's ZooDefs.OpCode) used outside
// go-zookeeper: the transaction log's record types and the requests it
// does not send.
const (
	OpNotification    = 0
	OpCreate          = 1
	OpDelete          = 2
	OpExists          = 3
	OpGetData         = 4
	OpSetData         = 5
	OpGetACL          = 6
	OpSetACL          = 7
	OpGetChildren     = 8
	OpSync            = 9
	OpPing            = 11
	OpGetChildren2    = 12
	OpCheck           = 13
	OpMulti           = 14
	OpCreate2         = 15
	OpReconfig        = 16
	OpCheckWatches    = 17
	OpRemoveWatches   = 18
	OpCreateContainer = 19
	OpDeleteContainer = 20
	OpCreateTTL       = 21
	OpMultiRead       = 22
	OpAuth            = 100
	OpSetWatches      = 101
	OpSASL            = 102
	OpGetEphemerals   = 103
	OpGetAllChildren  = 104
	OpSetWatches2     = 105
	OpAddWatch        = 106
	OpWhoAmI          = 107
	OpCreateSession   = -10
	OpCloseSession    = -11
	OpError           = -1
)

// Reserved xids of a client connection's replies.
const (
	XidNotification = -1 // a watch fired
	XidPing         = -2
	XidAuth         = -4
	XidSetWatches   = -8
)

// Error codes of a reply header (KeeperException.Code).
const (
	ErrOK                       = 0
	ErrSystem                   = -1
	ErrRuntimeInconsistency     = -2
	ErrDataInconsistency        = -3
	ErrConnectionLoss           = -4
	ErrMarshalling              = -5
	ErrUnimplemented            = -6
	ErrOperationTimeout         = -7
	ErrBadArguments             = -8
	ErrNewConfigNoQuorum        = -13
	ErrReconfigInProgress       = -14
	ErrUnknownSession           = -12
	ErrAPIError                 = -100
	ErrNoNode                   = -101
	ErrNoAuth                   = -102
	ErrBadVersion               = -103
	ErrNoChildrenForEphemerals  = -108
	ErrNodeExists               = -110
	ErrNotEmpty                 = -111
	ErrSessionExpired           = -112
	ErrInvalidCallback          = -113
	ErrInvalidACL               = -114
	ErrAuthFailed               = -115
	ErrSessionMoved             = -118
	ErrNotReadOnly              = -119
	ErrEphemeralOnLocalSession  = -120
	ErrNoWatcher                = -121
	ErrRequestTimeout           = -122
	ErrReconfigDisabled         = -123
	ErrSessionClosedRequireSASL = -124
	ErrQuotaExceeded            = -125
	ErrThrottled                = -127
)

// Watch modes of an addWatch request.
const (
	AddWatchPersistent          = 0
	AddWatchPersistentRecursive = 1
)

// Watcher types of a removeWatches request. 3.6–3.8 know only the first
// three and answer a marshalling error to the others.
const (
	WatcherChildren            = 1
	WatcherData                = 2
	WatcherAny                 = 3
	WatcherPersistent          = 4 // from 3.9
	WatcherPersistentRecursive = 5 // from 3.9
)

// Watch event types of a notification (Watcher.Event.EventType).
const (
	EventNone                = -1
	EventNodeCreated         = 1
	EventNodeDeleted         = 2
	EventNodeDataChanged     = 3
	EventNodeChildrenChanged = 4
	EventDataWatchRemoved    = 5
	EventChildWatchRemoved   = 6
	EventPersistentRemoved   = 7
)

// ErrorName names a reply's error code as ZooKeeper's KeeperException.Code
// does ("NONODE"), or "error N" for a code it does not know.
func ErrorName(code int32) string {
	if name, ok := errorNames[code]; ok {
		return name
	}
	return "error " + strconv.Itoa(int(code))
}

var errorNames = map[int32]string{
	ErrOK: "OK", ErrSystem: "SYSTEMERROR", ErrRuntimeInconsistency: "RUNTIMEINCONSISTENCY",
	ErrDataInconsistency: "DATAINCONSISTENCY", ErrConnectionLoss: "CONNECTIONLOSS",
	ErrMarshalling: "MARSHALLINGERROR", ErrUnimplemented: "UNIMPLEMENTED",
	ErrOperationTimeout: "OPERATIONTIMEOUT", ErrBadArguments: "BADARGUMENTS",
	ErrUnknownSession: "UNKNOWNSESSION", ErrNewConfigNoQuorum: "NEWCONFIGNOQUORUM",
	ErrReconfigInProgress: "RECONFIGINPROGRESS", ErrAPIError: "APIERROR", ErrNoNode: "NONODE",
	ErrNoAuth: "NOAUTH", ErrBadVersion: "BADVERSION", ErrNoChildrenForEphemerals: "NOCHILDRENFOREPHEMERALS",
	ErrNodeExists: "NODEEXISTS", ErrNotEmpty: "NOTEMPTY", ErrSessionExpired: "SESSIONEXPIRED",
	ErrInvalidCallback: "INVALIDCALLBACK", ErrInvalidACL: "INVALIDACL", ErrAuthFailed: "AUTHFAILED",
	ErrSessionMoved: "SESSIONMOVED", ErrNotReadOnly: "NOTREADONLY",
	ErrEphemeralOnLocalSession: "EPHEMERALONLOCALSESSION", ErrNoWatcher: "NOWATCHER",
	ErrRequestTimeout: "REQUESTTIMEOUT", ErrReconfigDisabled: "RECONFIGDISABLED",
	ErrSessionClosedRequireSASL: "SESSIONCLOSEDREQUIRESASLAUTH", ErrQuotaExceeded: "QUOTAEXCEEDED",
	ErrThrottled: "THROTTLEDOP",
}

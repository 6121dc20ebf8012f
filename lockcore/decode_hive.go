package lockcore

import (
	"strconv"
	"strings"
	"time"
)

// HiveLockData is the data of a Hive lock node.
type HiveLockData struct {
	QueryID string
	// LockTime is when the lock was taken, from the data (ms); zero when
	// it does not read as a time.
	LockTime time.Time
	// Explicit: LOCK TABLE took it (EXPLICIT), not a query (IMPLICIT).
	Explicit bool
	Query    string
	// Client is the host of the lock manager that took it: HiveServer2,
	// or the Hive CLI.
	Client string
}

// DecodeHiveLockData reads queryId:lockTime:IMPLICIT|EXPLICIT:query:clientIp.
// Hive strips colons from the first four fields only, so an IPv6 client
// address spans the rest.
func DecodeHiveLockData(data []byte) (HiveLockData, bool) {
	parts := strings.SplitN(string(data), ":", 5)
	if len(parts) != 5 || parts[0] == "" || parts[2] != hiveExplicit && parts[2] != "IMPLICIT" {
		return HiveLockData{}, false
	}
	d := HiveLockData{QueryID: parts[0], Explicit: parts[2] == hiveExplicit, Query: parts[3], Client: parts[4]}
	if ms, err := strconv.ParseInt(parts[1], 10, 64); err == nil && ms > 0 {
		d.LockTime = time.UnixMilli(ms)
	}
	return d, true
}

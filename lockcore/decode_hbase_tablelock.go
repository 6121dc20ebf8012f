package lockcore

import (
	"fmt"
	"strings"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// HBaseTableLock is the data of an HBase 1.x table lock node.
type HBaseTableLock struct {
	Namespace, Qualifier string
	Owner                HBaseServerName
	ThreadID             uint64
	Shared               bool
	Purpose              string
	// Created is create_time; zero when absent.
	Created time.Time
}

// DecodeHBaseTableLock decodes a table lock node's data; false unless it
// is HBase's metadata (optional), "PBUF" and a well-formed TableLock.
func DecodeHBaseTableLock(data []byte) (HBaseTableLock, bool) {
	body, _, ok := StripHBaseMetadata(data)
	if !ok || !strings.HasPrefix(string(body), hbasePBMagic) {
		return HBaseTableLock{}, false
	}
	var l HBaseTableLock
	ok = eachField(body[len(hbasePBMagic):], func(num protowire.Number, _ protowire.Type, v uint64, b []byte) bool {
		switch num {
		case 1:
			return b != nil && eachField(b, func(num protowire.Number, _ protowire.Type, _ uint64, s []byte) bool {
				switch num {
				case 1:
					l.Namespace = string(s)
				case 2:
					l.Qualifier = string(s)
				}
				return true
			})
		case 2:
			return b != nil && decodeServerName(b, &l.Owner)
		case 3:
			l.ThreadID = v
		case 4:
			l.Shared = v != 0
		case 5:
			l.Purpose = string(b)
		case 6:
			if v > 0 {
				l.Created = time.UnixMilli(int64(v))
			}
		}
		return true
	})
	return l, ok && l.Owner.Host != ""
}

// String names the lock's owner as HBase's TableLockManager logs it.
func (l HBaseTableLock) String() string {
	s := fmt.Sprintf("%s (thread %d)", l.Owner, l.ThreadID) + whenSet(" for ", l.Purpose, "")
	if !l.Created.IsZero() {
		s += ", since " + stamp(l.Created)
	}
	return s
}

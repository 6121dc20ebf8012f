package watchtest

import (
	"fmt"

	"github.com/zklocks/zklocks/zkwatch"
)

// kindNames names the event kinds in failure messages.
var kindNames = map[zkwatch.EventKind]string{
	zkwatch.EventConn:      "conn",
	zkwatch.EventLock:      "lock",
	zkwatch.EventLockGone:  "lock gone",
	zkwatch.EventDenied:    "denied",
	zkwatch.EventSynced:    "synced",
	zkwatch.EventServers:   "servers",
	zkwatch.EventError:     "error",
	zkwatch.EventDiscovery: "discovery",
	zkwatch.EventAction:    "action",
}

// DescribeEvent is one line on an event, for a failure message: its kind,
// path and what it carries that a test most often waits on.
func DescribeEvent(ev zkwatch.Event) string {
	kind, ok := kindNames[ev.Kind]
	if !ok {
		kind = fmt.Sprintf("kind %d", ev.Kind)
	}
	s := kind
	if ev.Path != "" {
		s += " " + ev.Path
	}
	switch {
	case ev.Kind == zkwatch.EventLock && ev.Lock != nil:
		s += fmt.Sprintf(", %d participants", len(ev.Lock.Participants))
	case ev.Kind == zkwatch.EventConn:
		s += ", " + ev.Conn.Phase.String()
	case ev.Kind == zkwatch.EventServers:
		s += fmt.Sprintf(", %d servers, %d clients", len(ev.Servers), len(ev.Clients))
	case ev.Err != nil:
		s += ": " + ev.Err.Error()
	}
	return s + " at " + ev.At.Format("15:04:05.000")
}

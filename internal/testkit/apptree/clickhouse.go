package apptree

import (
	"fmt"
	"strings"
	"testing"

	"github.com/go-zookeeper/zk"
)

// ClickHouseHostID is a host's id in the DDL queue as HostID::toString
// writes it: the host name escaped as escapeForFileName does (%XX for every
// byte other than a letter, a digit or '_'), ':' and the port.
func ClickHouseHostID(host string, port int) string {
	var b strings.Builder
	for i := 0; i < len(host); i++ {
		c := host[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return fmt.Sprintf("%s:%d", b.String(), port)
}

// ClickHouseEnqueue puts an ON CLUSTER query in the distributed DDL queue
// at queue as DDLWorker::enqueueQuery does: a persistent sequential
// query- entry with its version, query, hosts and initiator lines, and
// its active/ and finished/ directories. It returns the entry's path.
func ClickHouseEnqueue(t testing.TB, c *zk.Conn, queue, query string, hosts []string) string {
	t.Helper()
	MkdirAll(t, c, queue)
	quoted := make([]string, len(hosts))
	for i, h := range hosts {
		quoted[i] = "'" + h + "'"
	}
	data := fmt.Sprintf("version: 1\nquery: %s\nhosts: [%s]\ninitiator: %s\n", query, strings.Join(quoted, ","), hosts[0])
	entry := Create(t, c, queue+"/query-", []byte(data), zk.FlagSequence)
	Create(t, c, entry+"/active", nil, 0)
	Create(t, c, entry+"/finished", nil, 0)
	return entry
}

// ClickHouseStart marks host as executing the task, as DDLWorker does
// before it runs the query: an ephemeral active/<host id>.
func ClickHouseStart(t testing.TB, c *zk.Conn, entry, hostID string) {
	t.Helper()
	Create(t, c, entry+"/active/"+hostID, nil, zk.FlagEphemeral)
}

// ClickHouseFinish ends host's execution as DDLWorker::processTask does:
// one multi that removes active/<host id> and creates the persistent
// finished/<host id> with the execution status, "<code>\n<message>".
func ClickHouseFinish(t testing.TB, c *zk.Conn, entry, hostID string, code int, message string) {
	t.Helper()
	if _, err := c.Multi(
		&zk.DeleteRequest{Path: entry + "/active/" + hostID, Version: -1},
		&zk.CreateRequest{Path: entry + "/finished/" + hostID, Data: fmt.Appendf(nil, "%d\n%s", code, message), Acl: zk.WorldACL(zk.PermAll)},
	); err != nil {
		t.Fatalf("apptree: clickhouse finishes %s on %s: %v", entry, hostID, err)
	}
}

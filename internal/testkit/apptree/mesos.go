package apptree

import (
	"crypto/rand"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/go-zookeeper/zk"
)

// MesosMasterInfo is a master's MasterInfo as Mesos writes it to its
// group in JSON (json.info_ nodes).
func MesosMasterInfo(host, ip string, port int) []byte {
	return fmt.Appendf(nil, `{"address":{"hostname":%q,"ip":%q,"port":%d},"hostname":%q,"id":"%s-%d","ip":16777226,"pid":"master@%s:%d","port":%d,"version":"1.11.0"}`,
		host, ip, port, host, host, port, ip, port, port)
}

// MesosJoin joins a master to the group at dir as Mesos's
// ZooKeeperMasterContender does: an ephemeral sequential json.info_ node
// with its MasterInfo, then the group's children read with a watch (every
// contender and detector watches them). It returns the node's name.
func MesosJoin(t testing.TB, c *zk.Conn, dir string, info []byte) string {
	t.Helper()
	MkdirAll(t, c, dir)
	p := Create(t, c, dir+"/json.info_", info, zk.FlagEphemeral|zk.FlagSequence)
	if _, _, _, err := c.ChildrenW(dir); err != nil {
		t.Fatalf("apptree: mesos watches %s: %v", dir, err)
	}
	return Base(p)
}

// CuratorLatch joins a Curator LeaderLatch at dir with id as its data, as
// LeaderLatch does in protected mode: _c_<uuid>-latch- ephemeral
// sequential, then the children listed, and a getData watch on the node
// just before its own when it is not the lowest. It returns its node.
func CuratorLatch(t testing.TB, c *zk.Conn, dir, id string) string {
	t.Helper()
	MkdirAll(t, c, dir)
	node := Base(Create(t, c, dir+"/_c_"+uuid4()+"-latch-", []byte(id), zk.FlagEphemeral|zk.FlagSequence))
	children, _, err := c.Children(dir)
	if err != nil {
		t.Fatalf("apptree: latch lists %s: %v", dir, err)
	}
	var latches []string
	for _, n := range children {
		if strings.Contains(n, "-latch-") {
			latches = append(latches, n)
		}
	}
	seq := func(s string) string { return s[len(s)-10:] }
	sort.Slice(latches, func(i, j int) bool { return seq(latches[i]) < seq(latches[j]) })
	for i, n := range latches {
		if n == node && i > 0 {
			if _, _, _, err := c.GetW(dir + "/" + latches[i-1]); err != nil {
				t.Fatalf("apptree: latch watches %s: %v", latches[i-1], err)
			}
		}
	}
	return node
}

// AuroraAnnounce writes the leading scheduler's ServerSet announcement
// beside its latch, as CuratorSingletonService does once it leads: an
// ephemeral sequential member_ node with the ServiceInstance JSON.
func AuroraAnnounce(t testing.TB, c *zk.Conn, dir, host string, port int) string {
	t.Helper()
	data := fmt.Appendf(nil, `{"serviceEndpoint":{"host":%q,"port":%d},"additionalEndpoints":{"http":{"host":%q,"port":%d}},"status":"ALIVE"}`, host, port, host, port)
	return Base(Create(t, c, dir+"/member_", data, zk.FlagEphemeral|zk.FlagSequence))
}

func uuid4() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

package scale

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// scaleCluster is BenchmarkScale's cluster and how zklocks is pointed at
// it: by four-letter words, or (admin) through the AdminServer, every word
// but srvr being refused.
type scaleCluster struct {
	name      string
	members   []*zktest.Server
	addrs     []string
	connect   string
	admin     *words.AdminServer // nil: the defaults
	adminArgs []string           // the --admin-port flag naming each member's
}

// scaleServers starts the cluster's server or ensemble, sized for it, with
// every word allowed, or (admin) as production ships: srvr only, and the
// AdminServer on.
func scaleServers(b *testing.B, admin bool) scaleCluster {
	heap := max(1, (*scalePlain+*scaleWatches)/350_000)
	opts := []zktest.Option{zktest.WithJVMFlags(fmt.Sprintf("-Xms%dg", heap), fmt.Sprintf("-Xmx%dg", heap+1)),
		zktest.WithConfig("forceSync=no", "snapCount=5000000", "maxClientCnxns=0")}
	c := scaleCluster{name: "four-letter words:"}
	if admin {
		opts = append(opts, zktest.WithFourLetterWords("srvr"), zktest.WithAdminServer())
		c.name = "srvr and the AdminServer:"
	}
	if *scaleMembers <= 1 {
		c.members = []*zktest.Server{zktest.Start(b, opts...)}
	} else {
		c.members = zktest.StartEnsemble(b, *scaleMembers, opts...).Members()
	}
	ports := ""
	c.admin = &words.AdminServer{Ports: map[string]int{}}
	for i, m := range c.members {
		c.addrs = append(c.addrs, m.Addr())
		if i > 0 {
			c.connect += ","
			ports += ","
		}
		c.connect += m.Addr()
		c.admin.Ports[m.Addr()] = m.AdminPort()
		ports += fmt.Sprintf("%s=%d", m.Addr(), m.AdminPort())
	}
	if admin {
		c.adminArgs = []string{"--admin-port", ports}
	} else {
		c.admin = nil
	}
	return c
}

// stop stops the cluster's servers, so that the next cluster has the
// machine to itself.
func (c scaleCluster) stop() {
	for _, m := range c.members {
		m.Stop()
	}
}

// watchCount sums every member's watch count, of every kind: mntr's, or
// the AdminServer's monitor.
func (c scaleCluster) watchCount(b *testing.B) int {
	total := 0
	for _, m := range c.members {
		if c.admin == nil {
			total += zktest.WatchCount(b, m.Addr())
			continue
		}
		var mon struct {
			WatchCount int `json:"watch_count"`
		}
		resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(m.AdminPort()) + "/commands/monitor")
		if err != nil {
			b.Fatal(err)
		}
		err = json.NewDecoder(resp.Body).Decode(&mon)
		resp.Body.Close()
		if err != nil {
			b.Fatal(err)
		}
		total += mon.WatchCount
	}
	return total
}

// watchCountSettled is watchCount once it has stopped changing for two
// seconds: the watches a watcher sets arrive over its first moments.
func (c scaleCluster) watchCountSettled(b *testing.B) int {
	last := c.watchCount(b)
	for range 60 {
		time.Sleep(2 * time.Second)
		n := c.watchCount(b)
		if n == last {
			return n
		}
		last = n
	}
	return last
}

// tableCost asks one member for its whole watch table once (wchc, or the
// AdminServer's watches), to show what zklocks does not ask.
func (c scaleCluster) tableCost(b *testing.B) scaleTableResult {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	member := c.addrs[0]
	start := time.Now()
	if c.admin == nil {
		reply, err := words.FourLetter(ctx, member, "wchc")
		if err != nil {
			b.Fatal(err)
		}
		return scaleTableResult{member: member, via: "wchc", bytes: int64(len(reply)), took: time.Since(start)}
	}
	n, err := words.AdminStream(ctx, c.admin, member, "wchc", nil, func(string, *json.Decoder) (bool, error) { return false, nil })
	if err != nil {
		b.Fatal(err)
	}
	return scaleTableResult{member: member, via: "the AdminServer's watches", bytes: n, took: time.Since(start)}
}

package cli

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/bigtree"
)

func BenchmarkHoldCluster(b *testing.B) {
	c := scaleServers(b, false)
	defer c.stop()
	ctx := context.Background()
	spec := bigtree.Spec{Plain: *scalePlain, Locks: *scaleLocks, Contenders: *scaleContenders, Services: 2000, Stale: 20, ForeignWatches: *scaleWatches}
	tree, err := bigtree.Build(ctx, c.addrs, spec, b.Logf)
	if err != nil {
		b.Fatal(err)
	}
	defer tree.Close()
	os.WriteFile("/work/bench/cluster.addr", []byte(c.connect), 0o644)
	for {
		if _, err := os.Stat("/work/bench/cluster.addr"); err != nil {
			return
		}
		time.Sleep(time.Second)
	}
}

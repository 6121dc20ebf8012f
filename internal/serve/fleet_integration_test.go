package serve

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/hub"
	"github.com/zklocks/zklocks/model/check"
	"github.com/zklocks/zklocks/model/fleet"
)

// pollerSource is a Poller as the UI takes it.
type pollerSource struct {
	*fleet.Poller
	ctx context.Context
}

func (p pollerSource) Start() { p.Poller.Start(p.ctx) }

// A session shown the fleet screen that opens a cluster that cannot be
// opened is brought back to the cluster it was on, told why, and goes
// on, rather than ended.
func TestIntegrationFleetOpensUnreachable(t *testing.T) {
	t.Parallel()
	unreachable := errors.New("zookeeper unreachable: nothing listens there")
	probe := func(_ context.Context, name string) fleet.Cluster {
		if name == "gone" {
			return fleet.Cluster{Name: name, Reach: fleet.Unreachable, Err: unreachable.Error()}
		}
		return fleet.Summarize(name, "", nil, check.Result{Locks: 1, Holders: 1})
	}
	r := startRig(t, func(c *Config) {
		c.Contexts, c.Default, c.NoSwitch = []string{"gone", "it"}, "it", ""
		c.Fleet = pollerSource{Poller: fleet.NewPoller(c.Contexts, probe, time.Hour), ctx: t.Context()}
		dial := c.Dial
		c.Dial = func(ctx context.Context, name string) (hub.Cluster, error) {
			if name == "gone" {
				return hub.Cluster{}, unreachable
			}
			return dial(ctx, name)
		}
	})
	takeLock(t, r.zks.Connect(t), "/it/orders")
	a := r.open("alice", "alice")
	a.waitText("/it/orders")
	if _, err := a.in.Write([]byte(":fleet\r")); err != nil {
		t.Fatal(err)
	}
	a.waitText("[Fleet]")
	a.waitText("gone    UNKNOWN unreachable")
	// The unreachable cluster sorts first; the cursor starts on ours.
	if _, err := a.in.Write([]byte("g\r")); err != nil {
		t.Fatal(err)
	}
	a.waitText("context gone: zookeeper unreachable: nothing listens there")
	if _, err := a.in.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	if code := a.wait(); code != 0 {
		t.Fatalf("the session ended with status %d, want 0 (quit)", code)
	}
}

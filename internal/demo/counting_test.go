package demo

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklocks/zklocks/lockclient"
)

// fakeZK hands out watch channels the test fires by hand.
type fakeZK struct {
	lockclient.ZK
	watches chan chan zk.Event
}

func (f *fakeZK) Create(p string, _ []byte, _ int32, _ []zk.ACL) (string, error) { return p, nil }
func (f *fakeZK) Delete(string, int32) error                                     { return nil }
func (f *fakeZK) ExistsW(string) (bool, *zk.Stat, <-chan zk.Event, error) {
	ch := make(chan zk.Event, 1)
	f.watches <- ch
	return true, &zk.Stat{}, ch, nil
}
func (f *fakeZK) ChildrenW(string) ([]string, *zk.Stat, <-chan zk.Event, error) {
	ch := make(chan zk.Event, 1)
	f.watches <- ch
	return nil, &zk.Stat{}, ch, nil
}

func TestCountingZK(t *testing.T) {
	const own, other, dir = "/l/own-0000000001", "/l/other-0000000000", "/l"
	deleted := zk.Event{Type: zk.EventNodeDeleted}
	for _, tc := range []struct {
		name string
		// steps: "create P", "delete P", "watch P", "fire T" (fires the
		// oldest pending watch with type T), "children P"
		steps []string
		want  int64
	}{
		{"predecessor released", []string{"watch " + other, "fire deleted"}, 1},
		{"own release is not a wakeup", []string{"create " + own, "watch " + own, "delete " + own, "fire deleted"}, 0},
		{"own release notified before the delete returns", []string{"create " + own, "watch " + own, "fire deleted", "delete " + own}, 0},
		{"own node deleted by another session", []string{"create " + own, "watch " + own, "fire deleted"}, 0},
		{"a reused path counts once it is no longer ours", []string{"create " + own, "delete " + own, "watch " + own, "fire deleted"}, 1},
		{"after our own node went, the path counts again", []string{"create " + own, "watch " + own, "fire deleted", "watch " + own, "fire deleted"}, 1},
		{"children change", []string{"children " + dir, "fire children"}, 1},
		{"node created is not a wakeup", []string{"watch " + other, "fire created"}, 0},
		{"data change is not a wakeup", []string{"watch " + other, "fire changed"}, 0},
		{"closing the session is not a wakeup", []string{"watch " + other, "fire notwatching"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var n atomic.Int64
			f := &fakeZK{watches: make(chan chan zk.Event, 8)}
			c := newCountingZK(f, &n)
			var pending []chan zk.Event
			var outs []<-chan zk.Event
			for _, s := range tc.steps {
				verb, arg, _ := strings.Cut(s, " ")
				switch verb {
				case "create":
					c.Create(arg, nil, 0, nil)
				case "delete":
					c.Delete(arg, -1)
				case "watch":
					_, _, out, _ := c.ExistsW(arg)
					outs = append(outs, out)
					pending = append(pending, <-f.watches)
				case "children":
					_, _, out, _ := c.ChildrenW(arg)
					outs = append(outs, out)
					pending = append(pending, <-f.watches)
				case "fire":
					ev := deleted
					switch arg {
					case "children":
						ev.Type = zk.EventNodeChildrenChanged
					case "created":
						ev.Type = zk.EventNodeCreated
					case "changed":
						ev.Type = zk.EventNodeDataChanged
					case "notwatching":
						ev = zk.Event{Type: zk.EventNotWatching, State: zk.StateDisconnected, Err: zk.ErrClosing}
					}
					pending[0] <- ev
					close(pending[0])
					pending = pending[1:]
					// The relay passes the event on once it has counted it.
					select {
					case <-outs[0]:
					case <-time.After(5 * time.Second):
						t.Fatal("the event was not passed on")
					}
					outs = outs[1:]
				default:
					t.Fatalf("bad step %q", s)
				}
			}
			if got := n.Load(); got != tc.want {
				t.Errorf("wakeups = %d, want %d", got, tc.want)
			}
		})
	}
}

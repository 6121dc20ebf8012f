package ui

import (
	"strings"
	"testing"

	"github.com/zklocks/zklocks/lockcore"
)

// TestDetailShowsTheApplication opens a Kafka controller: the detail pane
// names it as Kafka does, with its fencing token and its waiting broker.
func TestDetailShowsTheApplication(t *testing.T) {
	b := newTree("/kafka/controller")
	b.t.Self = b.node("controller", sid(1), 0, `{"version":2,"brokerid":1,"timestamp":"1700000000000","kraftControllerEpoch":-1}`)
	b.t.Extra = map[string][]lockcore.Node{"/kafka/brokers/ids": {
		b.node("1", sid(1), 0, `{"version":5,"host":"kafka1","port":9092}`),
		b.node("2", sid(2), 0, `{"version":5,"host":"kafka2","port":9092}`)}}
	b.t.Related = map[string]lockcore.Node{"/kafka/controller_epoch": b.node("controller_epoch", 0, 0, "17")}
	l := b.analyze(map[int64][]string{sid(2): {"/kafka/controller"}}, longHeld)
	a := newTestApp(t, 120, 40)
	send(a, lockEvents(l))
	send(a, openLockMsg{path: "/kafka/controller"})
	s := screen(a)
	for _, want := range []string{"controller election", "broker 1 at kafka1:9092", "controller epoch 17", "waiting: broker 2 at kafka2:9092"} {
		if !strings.Contains(s, want) {
			t.Fatalf("no %q on the screen:\n%s", want, s)
		}
	}
}

package lockcore

import (
	"fmt"
	"path"
	"strconv"
	"strings"
)

// Kafka (ZooKeeper mode) elects its controller with one ephemeral node,
// <chroot>/controller, created in the same multi that bumps
// <chroot>/controller_epoch; every controller write is checked against the
// epoch node's zkVersion. Brokers register at <chroot>/brokers/ids/<id>
// and watch /controller with exists. (kafka/zk/ZkData.scala,
// KafkaZkClient.scala.)
const (
	kafkaControllerName = "controller"
	kafkaEpochName      = "controller_epoch"
	kafkaBrokersDir     = "brokers/ids"
)

func isKafkaController(lockPath string, self Node) bool {
	if BaseName(lockPath) != kafkaControllerName {
		return false
	}
	_, ok := DecodeKafkaController(self.Data)
	return ok
}

func kafkaBrokersPath(lockPath string) string { return JoinPath(path.Dir(lockPath), kafkaBrokersDir) }
func kafkaEpochPath(lockPath string) string   { return JoinPath(path.Dir(lockPath), kafkaEpochName) }

func analyzeKafka(l *Lock, t Tree) {
	setRecipe(l, RecipeKafkaController)
	dropHerd(l, "every broker watches /controller by design: when it goes, each one tries to become controller")
	c, _ := DecodeKafkaController(t.Self.Data)
	a := &App{Name: "kafka", What: "controller election", HolderSession: t.Self.Stat.EphemeralOwner}
	l.App = a
	brokersPath := kafkaBrokersPath(t.Path)
	brokers, listed := t.Extra[brokersPath]
	bySession := map[int64]string{}
	var holderReg *Node
	for i, n := range brokers {
		bySession[n.Stat.EphemeralOwner] = n.Name
		if n.Name == strconv.Itoa(c.BrokerID) {
			holderReg = &brokers[i]
		}
	}
	a.Holder = fmt.Sprintf("broker %d", c.BrokerID)
	if holderReg != nil {
		a.Holder = kafkaBrokerText(*holderReg)
	}
	if c.KRaftControllerEpoch != nil && *c.KRaftControllerEpoch != -1 {
		a.Notes = append(a.Notes, fmt.Sprintf("a KRaft controller holds the role (kraftControllerEpoch %d): the cluster is migrating to KRaft", *c.KRaftControllerEpoch))
	}
	if p, ok := holderOf(l); ok {
		p.Identity = a.Holder
	}
	kafkaToken(l, t)
	if !listed {
		return
	}
	kafkaMembers(l, brokers, brokersPath)
	switch {
	case holderReg == nil:
		l.Anomalies = append(l.Anomalies, Anomaly{Kind: AnomalyHolderUnregistered, Node: BaseName(t.Path), Nodes: []string{BaseName(t.Path)},
			Session: t.Self.Stat.EphemeralOwner,
			Detail: fmt.Sprintf("the controller is broker %d, but %s has no registration %d (registered: %s): its broker left the cluster while its session still holds /controller",
				c.BrokerID, brokersPath, c.BrokerID, idList(brokers))})
	case holderReg.Stat.EphemeralOwner != t.Self.Stat.EphemeralOwner:
		l.Anomalies = append(l.Anomalies, Anomaly{Kind: AnomalyHolderUnregistered, Node: BaseName(t.Path), Nodes: []string{BaseName(t.Path)},
			Session: t.Self.Stat.EphemeralOwner,
			Detail: fmt.Sprintf("the controller is broker %d in session %s, but broker %d is registered by session %s: a broker restarted while the old session still holds /controller",
				c.BrokerID, SessionHex(t.Self.Stat.EphemeralOwner), c.BrokerID, SessionHex(holderReg.Stat.EphemeralOwner))})
	}
}

// kafkaToken reads the controller epoch: its value, and its zkVersion,
// which every controller write is checked against.
func kafkaToken(l *Lock, t Tree) {
	p := kafkaEpochPath(t.Path)
	n, read := t.Related[p]
	switch {
	case !read:
	case n.Stat.Czxid == 0:
		l.App.Notes = append(l.App.Notes, p+" does not exist: no controller epoch to fence with")
	case n.DataDenied:
		l.App.Token = &AppToken{Name: "controller epoch", Path: p, Value: "unreadable (ACL)", Version: n.Stat.Version}
	default:
		value := quoteData(n.Data)
		if v, ok := DecodeKafkaEpoch(n.Data); ok {
			value = strconv.Itoa(v)
		}
		l.App.Token = &AppToken{Name: "controller epoch", Path: p, Value: value, Version: n.Stat.Version}
	}
}

// kafkaMembers lists the brokers: those watching /controller wait; the
// others are registered and could run for controller.
func kafkaMembers(l *Lock, brokers []Node, dir string) {
	hidden := map[int64]bool{}
	for _, s := range l.HiddenWaiters {
		hidden[s] = true
	}
	seen := map[int64]bool{}
	for _, n := range brokers {
		if n.Stat.EphemeralOwner == l.App.HolderSession {
			continue
		}
		m := AppMember{Session: n.Stat.EphemeralOwner, Identity: kafkaBrokerText(n), Path: JoinPath(dir, n.Name)}
		switch {
		case hidden[m.Session]:
			m.Role, m.Evidence = RoleWaiter, "registered broker; watches /controller (servers' watch table)"
		case l.WatchesSource == WatchesFromServer:
			m.Evidence = "registered broker; the servers' watch table shows no watch of its session on /controller"
		default:
			m.Evidence = "registered broker; every broker runs for controller (its watch is not known: the servers' watch table was not read)"
		}
		seen[m.Session] = true
		l.App.Members = append(l.App.Members, m)
	}
	for _, s := range l.HiddenWaiters {
		if !seen[s] {
			l.App.Members = append(l.App.Members, AppMember{Session: s, Role: RoleWaiter,
				Evidence: "watches /controller (servers' watch table); no broker registration of its session"})
		}
	}
}

func kafkaBrokerText(n Node) string {
	b, ok := DecodeKafkaBroker(n.Data)
	if !ok || b.Address() == "" {
		return "broker " + n.Name
	}
	return "broker " + n.Name + " at " + b.Address()
}

func idList(nodes []Node) string {
	if len(nodes) == 0 {
		return "none"
	}
	ids := make([]string, len(nodes))
	for i, n := range nodes {
		ids[i] = n.Name
	}
	return strings.Join(ids, ", ")
}

// dropHerd replaces the herd anomaly of a single-node election whose
// application makes every candidate watch the node with a note saying so.
func dropHerd(l *Lock, why string) {
	kept := l.Anomalies[:0]
	for _, a := range l.Anomalies {
		if a.Kind != AnomalyHerd {
			kept = append(kept, a)
		}
	}
	if len(kept) < len(l.Anomalies) {
		l.Warnings = append(l.Warnings, why)
	}
	l.Anomalies = kept
}

// kafkaShape is the rule book entry of RecipeKafkaController and its hooks.
func kafkaShape() builtin {
	b := singleNodeApp(RecipeKafkaController, "Apache Kafka's controller election (/controller)", "/**/controller", "decoder:kafka-controller",
		isKafkaController, analyzeKafka)
	b.extra = besideNode(isKafkaController, func(p string, _ Node) string { return kafkaBrokersPath(p) })
	b.related = besideNode(isKafkaController, func(p string, _ Node) string { return kafkaEpochPath(p) })
	return b
}

package lockcore

import (
	"fmt"
)

// Apache Mesos elects its leading master through its ZooKeeper group
// (src/zookeeper/group.cpp, master/contender/zookeeper.cpp): each master
// joins /mesos with an ephemeral sequential json.info_<seq> (info_<seq>
// before 0.24, a protobuf) holding its MasterInfo; the lowest sequence
// leads. Contenders and detectors watch the children of /mesos, a watch
// the servers' table cannot show. Other children (log_replicas, the
// replicated log's) are no members.
//
// Apache Aurora's scheduler leads through a Curator LeaderLatch (its id
// the scheduler's host) and the leader alone announces itself beside the
// latch with a ServerSet member_<seq> (CuratorSingletonService): no
// contender, and not a second recipe.
const (
	mesosInfo         = "info_"
	serverSetMember   = "member_"
	mesosChildrenNote = "watches the children of the group, as every Mesos contender and detector does; the servers' watch table cannot show it"
)

// Name kinds of Mesos's and Aurora's nodes.
const (
	// KindMesosMaster is a Mesos master's group membership, json.info_<seq>
	// or info_<seq>.
	KindMesosMaster NameKind = "mesos-master"
	// KindServerSetMember is a Twitter ServerSet announcement, member_<seq>
	// (Aurora, Finagle): a registration, not a contender.
	KindServerSetMember NameKind = "serverset-member"
)

// RecipeMesos is Mesos's master election.
const RecipeMesos Recipe = "mesos-master"

// parseMesosName reads the masters' info_ nodes before 0.24, which the
// entry's pattern (json.info_<seq>) cannot also state, and Aurora's
// member_ beside a latch.
func parseMesosName(n *Name, body string) bool {
	switch body {
	case mesosInfo:
		n.Kind = KindMesosMaster
	case serverSetMember:
		n.Kind = KindServerSetMember
	default:
		return false
	}
	return true
}

// mesosRules makes every Mesos waiter watch the group's children.
func mesosRules(entries []*entry, dir string) {
	for _, e := range entries {
		if e.name.Kind == KindMesosMaster && e.role == RoleWaiter {
			e.rule = &WatchTarget{Node: "*", Path: dir, Children: true}
			e.note = mesosChildrenNote
		}
	}
}

func analyzeMesos(l *Lock) {
	a := &App{Name: "mesos", What: "leading master election"}
	l.App = a
	for i := range l.Participants {
		p := &l.Participants[i]
		if m, ok := DecodeMesosMaster(p.Data); ok {
			p.Identity = m.String()
		} else if !p.Pending {
			p.Identity = undecoded("MasterInfo", p.Data, p.DataTruncated, p.DataDenied)
		}
		if p.Role == RoleHolder {
			a.Holder, a.HolderSession = p.Identity, p.Session
		}
	}
}

// analyzeAurora adds what Aurora's announcement beside its latch says:
// the leader's endpoint, and whether the announcing session is the
// latch's holder.
func analyzeAurora(l *Lock, t Tree) {
	var members []Node
	for i, c := range t.Children {
		if t.name(i, c).Kind == KindServerSetMember {
			members = append(members, c)
		}
	}
	if len(members) == 0 {
		return
	}
	holder, held := holderOf(l)
	a := &App{Name: "aurora", What: "scheduler leader election"}
	if held {
		a.Holder, a.HolderSession = holder.Identity, holder.Session
	}
	l.App = a
	for _, m := range members {
		id := "announced leader" + whenSet(" at ", serverSetEndpoint(m.Data), "")
		a.Members = append(a.Members, AppMember{Session: m.Stat.EphemeralOwner, Identity: id, Path: JoinPath(t.Path, m.Name),
			Evidence: "a ServerSet member_ node, written by the leader beside its latch: no contender"})
		if held && m.Stat.EphemeralOwner != holder.Session {
			l.Anomalies = append(l.Anomalies, Anomaly{Kind: AnomalySessionMismatch, Node: m.Name, Nodes: []string{m.Name, holder.Node}, Session: m.Stat.EphemeralOwner,
				Detail: fmt.Sprintf("%s announces the leader from session %s, but the latch's holder is %s (session %s): clients that read the announcement reach a scheduler that does not lead",
					m.Name, SessionHex(m.Stat.EphemeralOwner), holder.Node, SessionHex(holder.Session))})
		}
	}
}

// mesosShape is the rule book entry of RecipeMesos and its hooks.
func mesosShape() builtin {
	return builtin{Entry: Entry{
		Name: string(RecipeMesos), About: "Apache Mesos's leading master (json.info_<seq>, info_<seq> before 0.24, in the group /mesos)",
		Children: "json.info_{seq}", Grant: GrantElection, Waits: WaitChildren, Identity: "json:hostname",
	}, hooks: hooks{names: parseMesosName, kinds: map[string]NameKind{"": KindMesosMaster}, shape: parsedAs(KindMesosMaster), reads: readQueue, rules: mesosRules, beside: noSequence, app: func(l *Lock, _ Tree) { analyzeMesos(l) }}}
}

// auroraAnnouncement is the Curator latch's beside hook: Aurora's leader
// announces itself (member_<seq>) beside its latch, no stray.
func auroraAnnouncement(n Name) bool { return n.Kind == KindServerSetMember }

package lockcore

import (
	"fmt"
	"path"
	"strconv"
	"strings"
)

// SolrCloud elects its overseer and each shard's leader with
// ephemeral-sequential nodes <session>-<id>-n_<seq> under an election
// directory, sorted by sequence then name (LeaderElector.sortSeqs); each
// candidate watches the one before it (getData). The winner then creates
// a leader node: /overseer_elect/leader {"id": <its election node>}, or
// /collections/<c>/leaders/<shard>/leader with the leader's properties,
// in a multi that also bumps the version of leaders/<shard>, which the
// leader checks when it steps down (LeaderElector, OverseerElectionContext,
// ShardLeaderElectionContextBase).
const (
	solrElectionDir   = "election"
	solrOverseerElect = "overseer_elect"
	solrLeaderElect   = "leader_elect"
	solrLeaders       = "leaders"
	solrLeaderName    = "leader"
)

// KindSolrElection is a SolrCloud election node:
// <session id, signed decimal>-<node name or core node name>-n_<seq>.
const KindSolrElection NameKind = "solr-election"

// solrLeaderPaths names the leader node of an election directory, and for
// a shard the leaders/<shard> node whose version fences it ("" for the
// overseer).
func solrLeaderPaths(lockPath string) (leader, parent string, ok bool) {
	if BaseName(lockPath) != solrElectionDir {
		return "", "", false
	}
	base := path.Dir(lockPath)
	if BaseName(base) == solrOverseerElect {
		return JoinPath(base, solrLeaderName), "", true
	}
	shard, electDir := BaseName(base), path.Dir(base)
	if BaseName(electDir) != solrLeaderElect {
		return "", "", false
	}
	parent = JoinPath(JoinPath(path.Dir(electDir), solrLeaders), shard)
	return JoinPath(parent, solrLeaderName), parent, true
}

func analyzeSolr(l *Lock, t Tree) {
	leaderPath, parentPath, _ := solrLeaderPaths(t.Path)
	a := &App{Name: "solr", What: "overseer election"}
	if parentPath != "" {
		base := path.Dir(t.Path)
		a.What = fmt.Sprintf("leader election of shard %s of collection %s", BaseName(base), BaseName(path.Dir(path.Dir(base))))
	}
	l.App = a
	for i := range l.Participants {
		p := &l.Participants[i]
		if n := ParseName(BaseName(p.Path)); n.Kind == KindSolrElection {
			p.Identity = solrCandidate(n, parentPath == "")
			if n.Session != p.Session && p.Session != 0 {
				p.Note = strings.TrimPrefix(p.Note+"; ", "; ") + fmt.Sprintf("its name says session %s, its owner is %s", SessionHex(n.Session), SessionHex(p.Session))
			}
		}
	}
	if h, ok := holderOf(l); ok {
		a.Holder, a.HolderSession = h.Identity, h.Session
	}
	solrDuplicates(l)
	leader, read := t.Related[leaderPath]
	if !read || parentPath != "" && leader.Stat.Czxid == 0 {
		// Solr before the leaders/<shard>/leader node kept the leader's
		// properties in leaders/<shard> itself.
		if old, ok := t.Related[parentPath]; ok && old.Stat.Czxid != 0 && old.Ephemeral() {
			leader, read, leaderPath, parentPath = old, true, parentPath, ""
		}
	}
	switch {
	case !read:
		return
	case leader.Stat.Czxid == 0:
		a.Notes = append(a.Notes, "no leader node ("+leaderPath+"): the first in line has not registered as leader yet")
		return
	}
	solrLeaderNode(l, t, leader, leaderPath)
	if parent, ok := t.Related[parentPath]; ok && parent.Stat.Czxid != 0 {
		a.Token = &AppToken{Name: "version of " + solrLeaders + "/" + BaseName(parentPath), Path: parentPath, Value: strconv.Itoa(int(parent.Stat.Version)), Version: parent.Stat.Version}
	}
}

func solrCandidate(n Name, overseer bool) string {
	if overseer {
		return "node " + n.Prefix
	}
	return "replica " + n.Prefix
}

// solrLeaderNode names the holder from the leader node and checks that
// the leader still has an election node.
func solrLeaderNode(l *Lock, t Tree, leader Node, leaderPath string) {
	a := l.App
	rel := relativeTo(t.Path, leaderPath)
	s, ok := DecodeSolrLeader(leader.Data)
	if ok {
		a.Holder = s.String()
	} else {
		a.Holder = undecoded("the leader", leader.Data, leader.Truncated(), leader.DataDenied)
	}
	a.HolderSession = leader.Stat.EphemeralOwner
	var candidate *Participant
	for i := range l.Participants {
		p := &l.Participants[i]
		named := ok && s.ID != "" && BaseName(p.Path) == s.ID
		owned := leader.Stat.EphemeralOwner != 0 && p.Session == leader.Stat.EphemeralOwner
		if named || owned && (s.ID == "" || !ok) {
			candidate = p
			break
		}
	}
	if candidate == nil {
		what := "session " + SessionHex(leader.Stat.EphemeralOwner)
		if ok && s.ID != "" {
			what = "election node " + s.ID
		}
		l.Anomalies = append(l.Anomalies, Anomaly{Kind: AnomalyLeaderWithoutCandidate, Node: rel, Nodes: []string{rel},
			Session: leader.Stat.EphemeralOwner,
			Detail: fmt.Sprintf("the leader node names %s (%s), which has no node in %s any more: a leader that left the election still acts as leader until its session ends",
				a.Holder, what, t.Path)})
		return
	}
	if candidate.Role != RoleHolder {
		a.Notes = append(a.Notes, fmt.Sprintf("the leader node belongs to %s, which is not first in line: a new leader is taking over", candidate.Node))
	}
}

// solrDuplicates reports election nodes sharing a sequence number (a
// candidate that joined at the head takes the number of the one it
// overtakes): Solr orders them by name.
func solrDuplicates(l *Lock) {
	bySeq := map[int64][]string{}
	var seqs []int64
	for _, p := range l.Participants {
		if !p.HasSeq {
			continue
		}
		if bySeq[p.Seq] == nil {
			seqs = append(seqs, p.Seq)
		}
		bySeq[p.Seq] = append(bySeq[p.Seq], p.Node)
	}
	for _, seq := range seqs {
		nodes := bySeq[seq]
		if len(nodes) < 2 {
			continue
		}
		l.Anomalies = append(l.Anomalies, Anomaly{Kind: AnomalyDuplicateSeq, Node: nodes[0], Nodes: nodes,
			Detail: fmt.Sprintf("%d election nodes share sequence %d (a candidate joined at the head of the line); Solr orders them by name, so %s comes first",
				len(nodes), seq, strings.Join(nodes, " before "))})
	}
}

// solrShape is the rule book entry of RecipeSolrElection and its hooks.
func solrShape() builtin {
	return builtin{Entry: Entry{
		Name: string(RecipeSolrElection), About: "Apache SolrCloud's elections (overseer, shard leaders)",
		Children: "{session}-{id}-n_{seq}", Grant: GrantElection, Order: OrderNumber,
	}, hooks: hooks{accepts: solrSession, kind: ownKinds, kinds: map[string]NameKind{"": KindSolrElection}, app: analyzeSolr, related: solrRelated}}
}

// solrRelated names an election's leader node, and the shard's node above
// it when the election is a shard's.
func solrRelated(lockPath string, _ Node, childNames []string) []string {
	leader, parent, ok := solrLeaderPaths(lockPath)
	switch {
	case !ok || len(childNames) == 0:
		return nil
	case parent == "":
		return []string{leader}
	}
	return []string{leader, parent}
}

// solrSession: Solr writes its session id as a Java long in decimal,
// negative for half of all session ids.
func solrSession(vals partValues) bool {
	s, _ := vals.get(partSession)
	if !isDecimal(strings.TrimPrefix(s, "-")) {
		return false
	}
	_, err := strconv.ParseInt(s, 10, 64)
	return err == nil
}

package lockcore

import (
	"fmt"
	"path"
	"strconv"
)

// Apache Helix elects a cluster's controller with one ephemeral node,
// /<cluster>/CONTROLLER/LEADER, a ZNRecord whose id is the controller's
// instance name and whose simpleFields hold SESSION_ID (the creator's
// session, hex), LIVE_INSTANCE (pid@host) and HELIX_VERSION
// (DistributedLeaderElection.tryUpdateController). A controller that finds
// the node there takes itself for the leader when SESSION_ID is its own
// session. The new leader appends itself to /<cluster>/CONTROLLER/HISTORY,
// whose listFields.HISTORY keeps the last ten as
// "{CONTROLLER=…, TIME=<ms>, DATE=…, VERSION=…}" (ControllerHistory; older
// releases keep only names, under the cluster's name). Standby controllers
// watch LEADER's data.
const (
	helixLeaderName     = "LEADER"
	helixControllerName = "CONTROLLER"
	helixHistoryName    = "HISTORY"
)

// RecipeHelixController is Helix's controller leader election.
const RecipeHelixController Recipe = "helix-controller"

// AnomalySessionMismatch: an application's leader node names another
// session than the one that owns it (Helix's SESSION_ID).
const AnomalySessionMismatch AnomalyKind = "session-mismatch"

// RolePrevious marks an application member that held the lock before (a
// Helix HISTORY entry); it neither holds nor waits now.
const RolePrevious Role = "previous"

func isHelixLeader(lockPath string, self Node) bool {
	if BaseName(lockPath) != helixLeaderName || BaseName(path.Dir(lockPath)) != helixControllerName {
		return false
	}
	_, ok := DecodeHelixLeader(self.Data)
	return ok
}

func helixHistoryPath(lockPath string) string { return JoinPath(path.Dir(lockPath), helixHistoryName) }

func analyzeHelix(l *Lock, t Tree) {
	setRecipe(l, RecipeHelixController)
	dropHerd(l, "every standby controller watches the leader node by design")
	cluster := BaseName(path.Dir(path.Dir(t.Path)))
	h, _ := DecodeHelixLeader(t.Self.Data)
	a := &App{Name: "helix", What: "controller leader election of cluster " + cluster, Holder: h.String(), HolderSession: t.Self.Stat.EphemeralOwner}
	l.App = a
	if p, ok := holderOf(l); ok {
		p.Identity = a.Holder
	}
	a.Members = hiddenMembers(l, func(int64) (string, string) { return "", "" })
	for i := range a.Members {
		a.Members[i].Evidence = "a standby controller: watches the leader node (servers' watch table)"
	}
	if owner := t.Self.Stat.EphemeralOwner; h.Session != "" && owner != 0 {
		if s, err := strconv.ParseUint(h.Session, 16, 64); err != nil || int64(s) != owner {
			l.Anomalies = append(l.Anomalies, Anomaly{Kind: AnomalySessionMismatch, Node: helixLeaderName, Nodes: []string{helixLeaderName}, Session: owner,
				Detail: fmt.Sprintf("LEADER says SESSION_ID %s, but session %s owns the node: Helix's controllers compare SESSION_ID with their own session, so the owner does not take itself for the leader",
					strconv.Quote(h.Session), SessionHex(owner))})
		}
	}
	hp := helixHistoryPath(t.Path)
	hist, read := t.Related[hp]
	switch {
	case !read:
	case hist.Stat.Czxid == 0:
		a.Notes = append(a.Notes, "no CONTROLLER/HISTORY: the previous leaders are not known")
	default:
		names, at, ok := helixHistory(hist.Data, cluster)
		if !ok {
			a.Notes = append(a.Notes, undecoded("CONTROLLER/HISTORY", hist.Data, hist.Truncated(), hist.DataDenied))
		}
		for i := len(names) - 1; i >= 0; i-- {
			if i == len(names)-1 && names[i] == h.Instance {
				continue // the leader itself, appended when it won
			}
			id := "controller " + names[i]
			if !at[i].IsZero() {
				id += ", leader from " + stamp(at[i])
			}
			a.Members = append(a.Members, AppMember{Identity: id, Path: hp, Role: RolePrevious, Evidence: "a previous leader, from CONTROLLER/HISTORY"})
		}
	}
}

// helixShape is the rule book entry of RecipeHelixController and its hooks.
func helixShape() builtin {
	b := singleNodeApp(RecipeHelixController, "Apache Helix's controller leader (/<cluster>/CONTROLLER/LEADER)", "/**/CONTROLLER/LEADER", "json:id",
		isHelixLeader, analyzeHelix)
	b.related = besideNode(isHelixLeader, func(p string, _ Node) string { return helixHistoryPath(p) })
	return b
}

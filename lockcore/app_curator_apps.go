package lockcore

import (
	"path"
	"strings"
)

// Applications whose elections are Curator recipes, named by where they
// keep them (each under its own configurable root, so the path's last
// elements tell):
//   - Druid's CuratorDruidLeaderSelector: a LeaderLatch at
//     <druid.zk.paths.coordinatorPath>/_COORDINATOR or
//     <overlordPath>/_OVERLORD, its id the server's http://host:port.
//   - Spark standalone's ZooKeeperLeaderElectionAgent: a LeaderLatch at
//     <spark.deploy.zookeeper.dir>/leader_election, with no id.
//   - NiFi's CuratorLeaderElectionManager: a LeaderSelector at
//     <root>/leaders/<role> ("Cluster Coordinator", "Primary Node"), its
//     id the node's host:port.
func analyzeCuratorApp(l *Lock) {
	base, parent := BaseName(l.Path), BaseName(path.Dir(l.Path))
	var a *App
	switch {
	case l.Recipe == RecipeCuratorLeaderLatch && base == "_COORDINATOR":
		a = &App{Name: "druid", What: "coordinator leader election"}
	case l.Recipe == RecipeCuratorLeaderLatch && base == "_OVERLORD":
		a = &App{Name: "druid", What: "overlord leader election"}
	case l.Recipe == RecipeCuratorLeaderLatch && base == "leader_election" && strings.Contains(l.Path, "spark"):
		a = &App{Name: "spark", What: "standalone master election",
			Notes: []string{"Spark's masters join the latch with no id, so the leader is known by its session alone"}}
	case l.Recipe == RecipeCuratorMutex && parent == "leaders" && strings.Contains(l.Path, "nifi"):
		a = &App{Name: "nifi", What: base + " election"}
	default:
		return
	}
	if p, ok := holderOf(l); ok {
		a.Holder, a.HolderSession = p.Identity, p.Session
		if a.Holder == "" {
			a.Holder = "session " + SessionHex(p.Session)
		}
	}
	l.App = a
}

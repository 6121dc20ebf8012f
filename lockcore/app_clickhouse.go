package lockcore

import (
	"fmt"
	"path"
	"regexp"
	"slices"
)

// ClickHouse runs ON CLUSTER queries through its distributed DDL queue
// (DDLWorker, DDLTask): each query is a persistent sequential
// <queue>/query-<seq> whose data has version:, query:, hosts: and
// initiator: lines. A host executing it holds an ephemeral
// <entry>/active/<host id>, and writes a persistent
// <entry>/finished/<host id> ("<code>\n<message>") when done; the host id
// is its name escaped as a file name (%XX for each byte other than
// letters, digits and '_'), ':' and its port. zklocks shows a task with
// its executing hosts as holders, so a host that stays active with no
// live session and no finished node, a stuck task, is seen.
const (
	ddlActive   = "active"
	ddlFinished = "finished"
)

// RecipeClickHouseDDL is a ClickHouse distributed DDL task.
const RecipeClickHouseDDL Recipe = "clickhouse-ddl"

// AnomalyStuckTask: a host is active on a ClickHouse DDL task with no live
// session behind it and no finished node: the task waits for a host that
// is not working on it.
const AnomalyStuckTask AnomalyKind = "stuck-task"

var ddlEntryName = regexp.MustCompile(`^query-\d{10}$`)

// IsDDLTask reports whether the node at path, with these children, is a
// ClickHouse distributed DDL task entry.
func IsDDLTask(p string, childNames []string) bool {
	return ddlEntryName.MatchString(BaseName(p)) && slices.Contains(childNames, ddlActive)
}

// DDLTaskOf returns the task whose active/ directory p is: discovery finds
// the executing hosts' ephemeral nodes there and shows the task.
func DDLTaskOf(p string) (string, bool) {
	if BaseName(p) != ddlActive || !ddlEntryName.MatchString(BaseName(path.Dir(p))) {
		return "", false
	}
	return path.Dir(p), true
}

func ddlPaths(lockPath string) []string {
	return []string{JoinPath(lockPath, ddlActive), JoinPath(lockPath, ddlFinished)}
}

// ddlEntries reads a task: its active hosts are its holders, each
// executing it.
func ddlEntries(l *Lock, t Tree) []*entry {
	setRecipe(l, RecipeClickHouseDDL)
	active, finished := ddlPaths(t.Path)[0], ddlPaths(t.Path)[1]
	done := map[string]Node{}
	for _, n := range t.Extra[finished] {
		done[n.Name] = n
	}
	var entries []*entry
	for _, n := range t.Extra[active] {
		e := newEntry(t.Path, active, n)
		e.recipe, e.mode, e.role = RecipeClickHouseDDL, ModeRead, RoleHolder
		e.identity = "host " + DDLHostName(n.Name)
		e.note = "executing the task"
		if f, ok := done[n.Name]; ok {
			e.note = "finished too (" + ddlResult(f) + "): its active node goes with its session's next step"
		}
		entries = append(entries, e)
	}
	return entries
}

func analyzeClickHouseDDL(l *Lock, t Tree) {
	d := parseDDLEntry(t.Self.Data)
	what := "distributed DDL task " + BaseName(t.Path)
	if d.query != "" {
		what += ": " + d.query
	}
	a := &App{Name: "clickhouse", What: what}
	l.App = a
	if d.initiator != "" {
		a.Notes = append(a.Notes, "initiated by "+DDLHostName(d.initiator))
	}
	if n := l.Holders(); n > 0 {
		a.Holder = fmt.Sprintf("%d hosts executing", n)
		if n == 1 {
			a.Holder, a.HolderSession = l.Participants[0].Identity+" executing", l.Participants[0].Session
		}
	}
	active, finished := map[string]bool{}, map[string]Node{}
	for _, p := range l.Participants {
		active[BaseName(p.Path)] = true
	}
	dir := ddlPaths(t.Path)[1]
	for _, n := range t.Extra[dir] {
		finished[n.Name] = n
		a.Members = append(a.Members, AppMember{Identity: "host " + DDLHostName(n.Name), Path: JoinPath(dir, n.Name),
			Evidence: "finished, " + ddlResult(n)})
	}
	for _, h := range d.hosts {
		if _, ok := finished[h]; !ok && !active[h] {
			a.Members = append(a.Members, AppMember{Identity: "host " + DDLHostName(h), Role: RoleWaiter,
				Evidence: "named in the task's hosts, neither active nor finished: it has not reached this task in its queue"})
		}
	}
	for _, p := range l.Participants {
		if _, ok := finished[BaseName(p.Path)]; !ok && !p.Ephemeral && !p.Pending {
			l.Anomalies = append(l.Anomalies, ddlStuck(p, "no session owns its active node (persistent, created "+stamp(p.Ctime)+")"))
		}
	}
}

// ddlStuck is the stuck-task anomaly of a host, with why.
func ddlStuck(p Participant, why string) Anomaly {
	return one(AnomalyStuckTask, p, fmt.Sprintf("%s is active on this task, but %s, and it has no finished node: the task waits for a host that is not working on it",
		p.Identity, why))
}

// ddlStuckLinks adds a stuck-task anomaly for each host whose active
// node's session is connected to no member, and which has not finished
// (the finished hosts are the App's members with a path).
func ddlStuckLinks(l *Lock, links SessionLinks) {
	if l.Recipe != RecipeClickHouseDDL || l.App == nil {
		return
	}
	l.Anomalies = slices.DeleteFunc(l.Anomalies, func(a Anomaly) bool { return a.Kind == AnomalyStuckTask && a.Session != 0 })
	for _, p := range l.Participants {
		k := links.Of(p.Session)
		if k.State != LinkDisconnected || slices.ContainsFunc(l.App.Members, func(m AppMember) bool { return BaseName(m.Path) == BaseName(p.Path) }) {
			continue
		}
		l.Anomalies = append(l.Anomalies, ddlStuck(p, fmt.Sprintf("its session %s is connected to no ensemble member (every member's cons at %s)",
			SessionHex(p.Session), stamp(k.At))))
	}
}

// clickHouseShape is the rule book entry of RecipeClickHouseDDL and its hooks.
func clickHouseShape() builtin {
	return builtin{Entry: Entry{
		Name: string(RecipeClickHouseDDL), About: "ClickHouse's distributed DDL queue: a task's executing hosts under <queue>/query-<seq>/active",
		Paths: []string{"/**/query-*"}, Children: "{owner}", Grant: GrantCoHolding, Waits: WaitNothing, Identity: "name:owner",
	}, hooks: hooks{app: analyzeClickHouseDDL,
		shape: func(f treeFacts) bool { return IsDDLTask(f.path, f.names) },
		reads: func(l *Lock, t Tree, _ *WatchTable) []*entry { return ddlEntries(l, t) },
		extra: func(p string, _ Node, names []string) []string {
			if IsDDLTask(p, names) {
				return ddlPaths(p)
			}
			return nil
		}}}
}

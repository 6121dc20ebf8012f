package lockcore

import (
	"bytes"
	"fmt"
	"path"
	"strings"
)

// Hadoop's ActiveStandbyElector (HDFS ZKFC, YARN ResourceManager) elects
// with one ephemeral node, <parent>/ActiveStandbyElectorLock, whose data
// is the active's protobuf; standbys only watch it (exists). The active
// fences the previous one before writing its own data into the persistent
// <parent>/ActiveBreadCrumb, so a breadcrumb naming another node than the
// holder is an active that was not fenced (ActiveStandbyElector.java,
// HAZKInfo.proto).
const (
	hadoopLockName       = "ActiveStandbyElectorLock"
	hadoopBreadcrumbName = "ActiveBreadCrumb"
)

func isHadoopLock(lockPath string) bool { return BaseName(lockPath) == hadoopLockName }

func hadoopBreadcrumbPath(lockPath string) string {
	return JoinPath(path.Dir(lockPath), hadoopBreadcrumbName)
}

func analyzeHadoop(l *Lock, t Tree) {
	setRecipe(l, RecipeHadoopHA)
	dropHerd(l, "every standby watches the lock node by design: when it goes, each one tries to become active")
	a := &App{Name: "hadoop-ha", What: "active/standby election (ActiveStandbyElector)", HolderSession: t.Self.Stat.EphemeralOwner}
	l.App = a
	holder, ok := DecodeHadoopActive(t.Self.Data)
	switch {
	case ok && holder.NameNode:
		a.What = "active NameNode election (ZKFC) of nameservice " + holder.Cluster
		a.Holder = holder.String()
	case ok:
		a.What = "active ResourceManager election of cluster " + holder.Cluster
		a.Holder = holder.String()
	default:
		a.Holder = undecoded("the active", t.Self.Data, t.Self.Truncated(), t.Self.DataDenied)
	}
	if p, found := holderOf(l); found {
		p.Identity = a.Holder
	}
	a.Members = hiddenMembers(l, func(int64) (string, string) { return "", "" })
	for i := range a.Members {
		a.Members[i].Evidence = "a standby: watches the lock node (servers' watch table)"
	}
	hadoopBreadcrumb(l, t, holder, ok)
}

// hadoopBreadcrumb compares the breadcrumb with the holder's data: the
// active rewrites it only once it has fenced the previous active.
func hadoopBreadcrumb(l *Lock, t Tree, holder HadoopActive, decoded bool) {
	p := hadoopBreadcrumbPath(t.Path)
	crumb, read := t.Related[p]
	switch {
	case !read:
		return
	case crumb.Stat.Czxid == 0:
		l.App.Notes = append(l.App.Notes, "no "+hadoopBreadcrumbName+": the previous active left gracefully (it deletes its breadcrumb), or this is the first active")
		return
	case crumb.DataDenied || t.Self.DataDenied:
		l.App.Notes = append(l.App.Notes, "whether the previous active was fenced cannot be told: an ACL denies this session the data of the breadcrumb or the lock")
		return
	case bytes.Equal(crumb.Data, t.Self.Data):
		l.App.Notes = append(l.App.Notes, hadoopBreadcrumbName+" names the holder: the previous active was fenced, or left gracefully")
		return
	}
	old := undecoded("the breadcrumb's node", crumb.Data, crumb.Truncated(), false)
	if h, ok := DecodeHadoopActive(crumb.Data); ok {
		old = h.String()
	}
	now := l.App.Holder
	if decoded {
		now = holder.String()
	}
	detail := fmt.Sprintf("%s names %s, but the lock holder is %s: the old active has not been fenced yet, or its fencing failed (the new active rewrites the breadcrumb only after fencing it)",
		hadoopBreadcrumbName, old, now)
	if decoded && !holder.NameNode {
		detail += "; YARN's elector does not fence, so this only says the new active has not written its breadcrumb yet"
	}
	l.Anomalies = append(l.Anomalies, Anomaly{Kind: AnomalyUnfenced, Node: BaseName(t.Path),
		Nodes: []string{BaseName(t.Path), "../" + hadoopBreadcrumbName}, Session: t.Self.Stat.EphemeralOwner,
		Detail: strings.TrimSpace(detail)})
}

// hadoopShape is the rule book entry of RecipeHadoopHA and its hooks.
func hadoopShape() builtin {
	b := singleNodeApp(RecipeHadoopHA, "Hadoop's ActiveStandbyElector (HDFS NameNode, YARN ResourceManager HA)",
		"/**/ActiveStandbyElectorLock", "decoder:hadoop-active",
		func(p string, _ Node) bool { return isHadoopLock(p) }, analyzeHadoop)
	// The breadcrumb is read whether or not the lock node is ephemeral.
	b.related = func(p string, _ Node, children []string) []string {
		if len(children) == 0 && isHadoopLock(p) {
			return []string{hadoopBreadcrumbPath(p)}
		}
		return nil
	}
	return b
}

package lockcore

import (
	"fmt"
	"path"
	"strings"
)

// HBase elects its active master with one ephemeral node,
// <zookeeper.znode.parent>/master; every master first registers under
// <parent>/backup-masters/<host,port,startcode> and the winner deletes its
// own registration. Losers watch the master node (getData). Everything
// HBase writes through RecoverableZooKeeper carries ZKMetadata (0xFF, a
// big-endian int32 length, the process id and 8 salt bytes) before the
// "PBUF" magic and the protobuf (MasterAddressTracker,
// ActiveMasterManager, ZKMetadata, ZooKeeper.proto).
const (
	hbaseMasterName     = "master"
	hbaseBackupsName    = "backup-masters"
	hbaseMetaMagic      = 0xFF
	hbasePBMagic        = "PBUF"
	hbaseSaltLen        = 8
	hbaseServerNameSeps = ","
)

// KindHBaseServer is an HBase ServerName, "host,port,startcode": a
// backup master or region server registration, not a contender, though
// its 13-digit start code ends in ten digits.
const KindHBaseServer NameKind = "hbase-server"

// hbaseServerNames claims every body holding a ServerName's separators,
// and reads it as one when it is: a registration, not a contender.
func hbaseServerNames(n *Name, body string) bool {
	if !strings.Contains(body, hbaseServerNameSeps) {
		return false
	}
	if _, ok := ParseHBaseServerName(n.Raw); ok {
		*n = Name{Raw: n.Raw, Kind: KindHBaseServer}
	}
	return true
}

func isHBaseMaster(lockPath string, self Node) bool {
	if BaseName(lockPath) != hbaseMasterName {
		return false
	}
	_, ok := DecodeHBaseMaster(self.Data)
	return ok
}

func hbaseBackupMastersPath(lockPath string) string {
	return JoinPath(path.Dir(lockPath), hbaseBackupsName)
}

func hbaseMasterText(m HBaseMaster) string {
	s := "master " + m.Server.String()
	if m.InfoPort != 0 {
		s += fmt.Sprintf(" (info port %d)", m.InfoPort)
	}
	return s
}

func analyzeHBase(l *Lock, t Tree) {
	setRecipe(l, RecipeHBaseMaster)
	dropHerd(l, "every backup master watches the master node by design")
	m, _ := DecodeHBaseMaster(t.Self.Data)
	a := &App{Name: "hbase", What: "active master election", Holder: hbaseMasterText(m), HolderSession: t.Self.Stat.EphemeralOwner,
		Notes: []string{"HBase keeps no fencing token in ZooKeeper: a new active master takes over the old one's WALs through HDFS lease recovery"}}
	l.App = a
	if p, ok := holderOf(l); ok {
		p.Identity = a.Holder
	}
	hidden := map[int64]bool{}
	for _, s := range l.HiddenWaiters {
		hidden[s] = true
	}
	dir := hbaseBackupMastersPath(t.Path)
	registered := map[int64]bool{}
	for _, n := range t.Extra[dir] {
		name, ok := ParseHBaseServerName(n.Name)
		if b, decoded := DecodeHBaseMaster(n.Data); decoded && !ok {
			name, ok = b.Server, true
		}
		active := ok && name == m.Server || n.Stat.EphemeralOwner != 0 && n.Stat.EphemeralOwner == t.Self.Stat.EphemeralOwner
		member := AppMember{Session: n.Stat.EphemeralOwner, Identity: "backup master " + n.Name, Path: JoinPath(dir, n.Name),
			Role: RoleWaiter, Evidence: "registered under " + hbaseBackupsName}
		if active {
			member.Role, member.Evidence = "", "registered under "+hbaseBackupsName+", yet the active master"
		}
		if hidden[member.Session] {
			member.Evidence += "; watches the master node (servers' watch table)"
		}
		registered[member.Session] = true
		a.Members = append(a.Members, member)
		if active {
			l.Anomalies = append(l.Anomalies, Anomaly{Kind: AnomalyBackupIsActive, Node: BaseName(t.Path),
				Nodes: []string{BaseName(t.Path), "../" + hbaseBackupsName + "/" + n.Name}, Session: n.Stat.EphemeralOwner,
				Detail: fmt.Sprintf("%s is the active master and is still registered as a backup master (session %s): the active master deletes its own backup registration when it wins, so it did not finish taking over, or a restarted master reuses its name",
					m.Server, SessionHex(n.Stat.EphemeralOwner))})
		}
	}
	for _, s := range l.HiddenWaiters {
		if !registered[s] {
			a.Members = append(a.Members, AppMember{Session: s, Role: RoleWaiter,
				Evidence: "watches the master node (servers' watch table); no backup-masters registration of its session"})
		}
	}
}

// hbaseMasterShape is the rule book entry of RecipeHBaseMaster and its hooks.
func hbaseMasterShape() builtin {
	b := singleNodeApp(RecipeHBaseMaster, "Apache HBase's active master (/hbase/master)", "/**/master", "decoder:hbase-master",
		isHBaseMaster, analyzeHBase)
	b.names = hbaseServerNames
	b.extra = besideNode(isHBaseMaster, func(p string, _ Node) string { return hbaseBackupMastersPath(p) })
	return b
}

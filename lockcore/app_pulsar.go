package lockcore

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// Apache Pulsar keeps two kinds of single-node locks in its metadata store
// (pulsar-metadata's LeaderElectionImpl and ResourceLockImpl): the load
// manager's leader, /loadbalance/leader, an ephemeral JSON node
// ({"serviceUrl": …}, later with "brokerId"), and the ownership of each
// namespace bundle, /namespace/<tenant>/<namespace>/<0xLOW_0xHIGH>
// (/namespace/<property>/<cluster>/<namespace>/… for version 1 names), an
// ephemeral NamespaceEphemeralData ({"nativeUrl", "httpUrl", "disabled",
// …}). Brokers register at /loadbalance/brokers/<host>:<web port>. A broker
// that finds its own value under another session deletes the node and
// creates it again; followers wait through one persistent recursive watch
// on the root, not a watch on the node.
const (
	pulsarLoadBalance = "loadbalance"
	pulsarLeaderName  = "leader"
	pulsarBrokersDir  = "loadbalance/brokers"
	pulsarNamespace   = "namespace"
)

// RecipePulsarLeader and RecipePulsarBundle are Pulsar's leader election
// and a bundle's ownership.
const (
	RecipePulsarLeader Recipe = "pulsar-leader"
	RecipePulsarBundle Recipe = "pulsar-bundle"
)

var pulsarBundleName = regexp.MustCompile(`^0x[0-9a-fA-F]{8}_0x[0-9a-fA-F]{8}$`)

// pulsarRoot is the metadata store's root above a Pulsar lock path, and
// which lock it is; ok is false for any other path.
func pulsarRoot(lockPath string) (root string, leader, ok bool) {
	if BaseName(lockPath) == pulsarLeaderName && BaseName(path.Dir(lockPath)) == pulsarLoadBalance {
		return path.Dir(path.Dir(lockPath)), true, true
	}
	if !pulsarBundleName.MatchString(BaseName(lockPath)) {
		return "", false, false
	}
	i := strings.LastIndex(lockPath, "/"+pulsarNamespace+"/")
	if i < 0 {
		return "", false, false
	}
	if i == 0 {
		return "/", false, true
	}
	return lockPath[:i], false, true
}

func isPulsarLock(lockPath string, self Node) bool {
	_, leader, ok := pulsarRoot(lockPath)
	if !ok {
		return false
	}
	o, decoded := DecodePulsarOwner(self.Data)
	return decoded && (leader && o.hasLeaderKeys || !leader && o.hasOwnerKey)
}

func pulsarBrokersPath(lockPath string) string {
	root, _, _ := pulsarRoot(lockPath)
	return JoinPath(root, pulsarBrokersDir)
}

// pulsarRegistrationPath is the registration of a bundle's owner, or "".
func pulsarRegistrationPath(lockPath string, self Node) string {
	o, _ := DecodePulsarOwner(self.Data)
	if r := o.registration(); r != "" {
		return JoinPath(pulsarBrokersPath(lockPath), r)
	}
	return ""
}

func analyzePulsar(l *Lock, t Tree) {
	root, leader, _ := pulsarRoot(t.Path)
	o, _ := DecodePulsarOwner(t.Self.Data)
	a := &App{Name: "pulsar", Holder: o.String(), HolderSession: t.Self.Stat.EphemeralOwner,
		Notes: []string{"Pulsar's brokers wait through one persistent recursive watch on the metadata store's root, not a watch on this node"}}
	l.App = a
	if p, ok := holderOf(l); ok {
		p.Identity = a.Holder
	}
	brokers := pulsarBrokersPath(t.Path)
	reg := JoinPath(brokers, o.registration())
	var regNode Node
	known := false
	if leader {
		setRecipe(l, RecipePulsarLeader)
		a.What = "load manager leader election"
		kids, listed := t.Extra[brokers]
		for _, n := range kids {
			m := AppMember{Session: n.Stat.EphemeralOwner, Identity: "broker " + n.Name, Path: JoinPath(brokers, n.Name), Evidence: "registered under " + pulsarBrokersDir}
			a.Members = append(a.Members, m)
			if n.Name == o.registration() {
				regNode = n
			}
		}
		known = listed
	} else {
		setRecipe(l, RecipePulsarBundle)
		bundle := strings.TrimPrefix(t.Path, JoinPath(root, pulsarNamespace)+"/")
		a.What = "ownership of bundle " + path.Dir(bundle) + " " + BaseName(bundle)
		regNode, known = t.Related[reg]
		if o.Disabled {
			a.Notes = append(a.Notes, "disabled: the owner is unloading this bundle; it serves no new lookups")
		}
	}
	owner := t.Self.Stat.EphemeralOwner
	switch {
	case !known || o.registration() == "":
	case regNode.Stat.Czxid == 0:
		l.Anomalies = append(l.Anomalies, Anomaly{Kind: AnomalyHolderUnregistered, Node: BaseName(t.Path), Nodes: []string{BaseName(t.Path)}, Session: owner,
			Detail: fmt.Sprintf("%s holds it, but no broker is registered at %s: a broker that lost its registration still holds it", o, reg)})
	case regNode.Stat.EphemeralOwner != owner:
		l.Anomalies = append(l.Anomalies, Anomaly{Kind: AnomalyHolderUnregistered, Node: BaseName(t.Path), Nodes: []string{BaseName(t.Path)}, Session: owner,
			Detail: fmt.Sprintf("%s holds it with session %s, but %s is registered by session %s: the holder is an old incarnation of the broker, or another process took its name",
				o, SessionHex(owner), reg, SessionHex(regNode.Stat.EphemeralOwner))})
	}
}

// pulsarLeaderShape is the rule book entry of RecipePulsarLeader and its hooks.
func pulsarLeaderShape() builtin {
	b := singleNodeApp(RecipePulsarLeader, "Apache Pulsar's load manager leader (/loadbalance/leader)", "/**/loadbalance/leader", "json:serviceUrl",
		isPulsarLock, analyzePulsar)
	b.extra = besideNode(isPulsarLock, func(p string, _ Node) string {
		if _, leader, _ := pulsarRoot(p); leader {
			return pulsarBrokersPath(p)
		}
		return ""
	})
	return b
}

// pulsarBundleShape is the rule book entry of RecipePulsarBundle and its hooks.
func pulsarBundleShape() builtin {
	b := singleNodeApp(RecipePulsarBundle, "Apache Pulsar's namespace bundle ownership (/namespace/<tenant>/<namespace>/<0xLOW_0xHIGH>)", "/**/namespace/**/0x*_0x*", "json:nativeUrl",
		isPulsarLock, analyzePulsar)
	b.related = besideNode(isPulsarLock, func(p string, self Node) string {
		if _, leader, _ := pulsarRoot(p); !leader {
			return pulsarRegistrationPath(p, self)
		}
		return ""
	})
	return b
}

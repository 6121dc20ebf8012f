package lockcore

import (
	"strconv"
	"unicode/utf8"
)

// App is what an application's own tree says about a lock or an election
// that application keeps: who holds it in the application's terms, who
// waits, and the application's fencing token. Each application is
// recognised by the shape of its tree (paths, names, data), wherever its
// base is, with no configuration.
type App struct {
	// Name is the application: "kafka", "hadoop-ha", "hbase", "solr",
	// "accumulo" or "curator".
	Name string
	// What the lock is, in the application's words: "controller
	// election", "active NameNode election", "overseer election".
	What string
	// Holder names the holder in the application's terms, decoded from its
	// data ("broker 1 at kafka1:9092"); empty when nobody holds. When the
	// data does not decode, it says so and shows the data escaped.
	Holder string
	// HolderSession is the holder's session, or zero.
	HolderSession int64
	// Token is the application's fencing token; nil when it has none or it
	// could not be read.
	Token *AppToken
	// Members are the application's processes that take part without a
	// node in the queue (brokers, standby NameNodes, backup masters): the
	// sessions that watch the lock node, from the servers' watch table,
	// and the processes the application registers elsewhere.
	Members []AppMember
	// Notes are facts worth knowing that are not anomalies: what could
	// not be told and why.
	Notes []string
}

// AppToken is an application's fencing token: what its own writes are
// checked against, so that a holder that lost the lock is refused.
type AppToken struct {
	// Name is what the application calls it ("controller epoch").
	Name string
	// Path is the node the token lives in.
	Path string
	// Value is the token as the application reads it ("17").
	Value string
	// Version is the node's data version, when the application checks
	// writes against it (Kafka's zkVersion of /controller_epoch); -1 when
	// it does not.
	Version int32
}

// AppMember is one process of the application taking part in a lock.
type AppMember struct {
	// Session is its ZooKeeper session, or zero when unknown.
	Session int64
	// Identity names it in the application's terms ("broker 2 at
	// kafka2:9092"); empty when only its session is known.
	Identity string
	// Path is the node that registers it (a broker id, a backup master),
	// or empty.
	Path string
	// Role is RoleWaiter for a process known to wait for the lock; empty
	// for one that could run for it but is not seen waiting.
	Role Role
	// Evidence says how it is known.
	Evidence string
}

// Application anomalies: an application's own failure signs.
const (
	// AnomalyUnfenced: Hadoop's breadcrumb names another node than the lock
	// holder: the old active has not been fenced yet, or fencing failed.
	AnomalyUnfenced AnomalyKind = "unfenced"
	// AnomalyHolderUnregistered: the holder has no registration of its
	// own session (Kafka's controller, Pulsar's leader or a bundle's
	// owner).
	AnomalyHolderUnregistered AnomalyKind = "holder-unregistered"
	// AnomalyBackupIsActive: an HBase backup master is also the active
	// master.
	AnomalyBackupIsActive AnomalyKind = "backup-is-active"
	// AnomalyLeaderWithoutCandidate: a Solr leader node whose election
	// node no longer exists.
	AnomalyLeaderWithoutCandidate AnomalyKind = "leader-without-candidate"
	// AnomalyDuplicateSeq: election nodes sharing one sequence number,
	// ordered by name as the application does.
	AnomalyDuplicateSeq AnomalyKind = "duplicate-seq"
)

// Waiters of an application that hold no node in the queue and are not
// among the hidden waiters: processes the application registers as
// waiting (HBase's backup masters).
func (a *App) registeredWaiters(hidden []int64) int {
	if a == nil {
		return 0
	}
	n := 0
	for _, m := range a.Members {
		if m.Role != RoleWaiter || m.Path == "" {
			continue
		}
		seen := false
		for _, s := range hidden {
			seen = seen || s == m.Session
		}
		if !seen {
			n++
		}
	}
	return n
}

// expectedBeside reports whether a child that is no contender belongs
// beside the contenders of the kinds present by their application's
// design, as their entries' beside hooks say: the objects below a Hive
// object, Mesos's log_replicas beside its masters, Aurora's announcement
// beside its latch.
func expectedBeside(n Name, kinds map[NameKind]hooks) bool {
	for _, h := range kinds {
		if h.beside != nil && h.beside(n) {
			return true
		}
	}
	return false
}

// noSequence is a beside hook: a child without a sequence belongs there
// (a Hive object's objects below it; Mesos's replicated log).
func noSequence(n Name) bool { return !n.HasSeq }

// RelatedPaths names the nodes an application keeps beside a lock that
// its analysis reads: Kafka's /controller_epoch, Hadoop's breadcrumb,
// Solr's leader node, by each application's related hook. It returns nil
// for every other lock.
func RelatedPaths(lockPath string, self Node, childNames []string) []string {
	for _, c := range builtinBook().related {
		if p := c.hooks.related(lockPath, self, childNames); p != nil {
			return p
		}
	}
	return nil
}

// MaybeAppLockNode reports whether an ephemeral leaf at path may be an
// application's single-node election whose data tells (Kafka's
// controller, HBase's active master): a reader reads its data and asks
// IsAppLockNode.
func MaybeAppLockNode(path string) bool {
	switch BaseName(path) {
	case kafkaControllerName, hbaseMasterName, helixLeaderName:
		return true
	}
	_, _, pulsar := pulsarRoot(path)
	return pulsar
}

// IsAppLockNode reports whether the ephemeral leaf n at path is an
// application's single-node election, by its name and data.
func IsAppLockNode(path string, n Node) bool {
	return n.Ephemeral() && (isKafkaController(path, n) || isHBaseMaster(path, n) || isHelixLeader(path, n) || isPulsarLock(path, n))
}

// holderOf returns the first holder among l's participants.
func holderOf(l *Lock) (*Participant, bool) {
	for i := range l.Participants {
		if l.Participants[i].Role == RoleHolder {
			return &l.Participants[i], true
		}
	}
	return nil, false
}

// setRecipe names the lock and its participants after the application.
func setRecipe(l *Lock, r Recipe) {
	l.Recipe = r
	for i := range l.Participants {
		l.Participants[i].Recipe = r
	}
}

// hiddenMembers lists the sessions watching a single-node election as
// waiting members, named by identify when it knows them.
func hiddenMembers(l *Lock, identify func(session int64) (identity, path string)) []AppMember {
	var out []AppMember
	for _, s := range l.HiddenWaiters {
		id, p := identify(s)
		out = append(out, AppMember{Session: s, Identity: id, Path: p, Role: RoleWaiter,
			Evidence: "watches the lock node (servers' watch table)"})
	}
	return out
}

// undecoded says that data did not decode as the application's, and
// shows it as it is, escaped: never guessed.
func undecoded(what string, data []byte, truncated, denied bool) string {
	switch {
	case denied:
		return what + " unreadable: the node's ACL denies this session its data"
	case len(data) == 0:
		return what + " not stated: the node holds no data"
	}
	s := what + " does not decode: data " + quoteData(data)
	if truncated {
		s += " (cut)"
	}
	return s
}

// quoteData shows bytes as Go-quoted text when they are mostly text, and
// as hex otherwise; either way no control byte reaches a terminal.
func quoteData(b []byte) string {
	const max = 64
	cut := ""
	if len(b) > max {
		b, cut = b[:max], "…"
	}
	if utf8.Valid(b) {
		return strconv.QuoteToASCII(string(b)) + cut
	}
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b)+2)
	out = append(out, "0x"...)
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&0xf])
	}
	return string(out) + cut
}

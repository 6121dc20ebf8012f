package lockcore

import (
	"strconv"
	"strings"
)

// builtinShapes is every shape zklocks knows without being told: the lock
// clients' recipes and the classic shapes here, each application's own
// locks in its file (app_*.go), each one entry and its hooks. Every entry
// is found by the book as a user's entry is; what its fields cannot state
// (a semaphore's two trees, a queue whose names only its application's
// hook reads, a plain node's holder) is a named hook beside it. The plain
// ephemeral node comes last: its paths take every node the applications'
// single-node entries before it do not claim.
func builtinShapes() []builtin {
	mutex := func(name, about, children string, order SeqOrder) Entry {
		return Entry{Name: name, About: about, Children: children, Grant: GrantMutex, Order: order}
	}
	kind := func(k NameKind) map[string]NameKind { return map[string]NameKind{"": k} }
	return []builtin{
		// A LeaderSelector's id in its node's data names the holder, which
		// no identity rule states: readCurator does.
		{Entry: mutex(string(RecipeCuratorMutex), "Apache Curator InterProcessMutex (also LeaderSelector), protected mode",
			"_c_{id:uuid}-lock-{seq}", OrderText), hooks: hooks{app: readCurator, kinds: kind(KindCuratorLock)}},
		{Entry: Entry{Name: string(RecipeCuratorRWLock), About: "Apache Curator InterProcessReadWriteLock",
			Children: "_c_{id:uuid}-{mode}{seq}", Modes: map[string]Mode{"__READ__": ModeRead, "__WRIT__": ModeWrite},
			Grant: GrantReadWrite, ReadWaitsOn: ReadFirstWrite, Order: OrderText},
			hooks: hooks{readsOwnWrite: curatorReadsOwnWrite, kinds: map[string]NameKind{"__READ__": KindCuratorRead, "__WRIT__": KindCuratorWrite}}},
		{Entry: Entry{Name: string(RecipeCuratorSemaphore), About: "Apache Curator InterProcessSemaphoreV2: lease nodes under leases/, acquirers' mutex under locks/",
			Children: "_c_{id:uuid}-lease-{seq}", Grant: GrantSemaphore, Limit: limitUnstated, Order: OrderText},
			hooks: hooks{shape: shapeIs(shapeCuratorSemaphore), reads: readCuratorSemaphore, extra: curatorSemaphoreDirs, kinds: kind(KindCuratorLease)}},
		// zk.Lock waits on every child whose text after the last '-' is a
		// number, whatever its shape: a lock with a child of another name is
		// read by the parser, which knows that, as it always was.
		{Entry: mutex(string(RecipeGoZKLock), "go-zookeeper zk.Lock", "_c_{id:hex32}-lock-{seq}", OrderNumber), hooks: hooks{kinds: kind(KindGoZKLock)}},
		// kazoo's ids are a uuid4's hex: {id:hex} leaves names of any other
		// id (and every lock holding one) to the parser, which reads them as
		// it always did, never taking a protected-mode _c_ name for kazoo's.
		{Entry: mutex(string(RecipeKazooLock), "kazoo Lock (also Election)", "{id:hex}__lock__{seq}", OrderText), hooks: hooks{kinds: kind(KindKazooLock)}},
		// A name of Curator's protected form is never kazoo's (kazoo
		// ignores no name that ends its way, but Curator's is read first).
		// kazoo's Lock and WriteLock write the same names: a __lock__ node
		// is a write only beside readers. A reader is kazoo's own kind, so
		// that its server watches are read as kazoo's reader before 2.9
		// waits (on the newest write, even one queued after it).
		{Entry: Entry{Name: string(RecipeKazooRWLock), About: "kazoo ReadLock and WriteLock sharing one path",
			Children: "{id}__{mode}__{seq}", Modes: map[string]Mode{"lock": ModeWrite, "rlock": ModeRead},
			Grant: GrantReadWrite, ReadWaitsOn: ReadNearestWrite, Order: OrderText},
			hooks: hooks{accepts: notProtected, lockHas: hasKazooReader, kind: ownKinds, kinds: map[string]NameKind{"lock": KindKazooLock, "rlock": KindKazooRead}}},
		{Entry: Entry{Name: string(RecipeKazooSemaphore), About: "kazoo Semaphore: one lease node per holder, max_leases in the node's data, acquirers queue in <path>-__lock__",
			Children: "{id:hex32}", Grant: GrantSemaphore, Limit: "data", Waits: WaitChildren},
			hooks: hooks{shape: shapeIs(shapeKazooSemaphore), reads: readKazooSemaphore, extra: kazooSemaphoreQueuePath, kinds: kind(KindKazooLease)}},
		// WriteLock writes its session as a non-negative decimal long,
		// narrower than {session}, and sees no wrapped sequence.
		{Entry: mutex(string(RecipeZKWriteLock), "ZooKeeper's WriteLock recipe (x-<session>-<seq>)", "x-{session}-{seq}", OrderNumber),
			hooks: hooks{accepts: writeLockName, names: writeLockNames, kinds: kind(KindZKWriteLock)}},
		// Its id, in the node's data, names a participant: readCurator.
		// Aurora's leader announces itself beside its latch.
		{Entry: Entry{Name: string(RecipeCuratorLeaderLatch), About: "Apache Curator LeaderLatch: the lowest leads",
			Children: "_c_{id:uuid}-latch-{seq}", Grant: GrantElection, Order: OrderText}, hooks: hooks{app: readCurator, beside: auroraAnnouncement, kinds: kind(KindCuratorLatch)}},
		{Entry: Entry{Name: string(RecipeZKElection), About: "ZooKeeper's LeaderElectionSupport recipe (n_<seq>)",
			Children: "n_{seq}", Grant: GrantElection, Order: OrderNumber}, hooks: hooks{kinds: kind(KindZKElection)}},
		{Entry: Entry{Name: string(RecipeHostRW), About: "the classic host-tagged read/write lock (<host>-R-<seq>, <host>-W-<seq>)",
			Children: "{owner}-{mode}-{seq}", Modes: map[string]Mode{"R": ModeRead, "W": ModeWrite},
			Grant: GrantReadWrite, ReadWaitsOn: ReadNearestWrite, Order: OrderText}, hooks: hooks{kinds: map[string]NameKind{"R": KindHostRead, "W": KindHostWrite}}},
		// The shape writes its session unsigned, in decimal up to 2^64-1 or
		// in hex; {session} would also take a negative decimal.
		{Entry: mutex(string(RecipeSessionLock), "the classic session-tagged lock (lock-<session>-<seq>)", "lock-{session}-{seq}", OrderText),
			hooks: hooks{accepts: unsignedSession, names: sessionLockNames, kinds: kind(KindSessionLock)}},
		kafkaShape(),
		hadoopShape(),
		hbaseMasterShape(),
		solrShape(),
		accumuloLockShape(),
		accumuloFateShape(),
		hbaseTableLockShape(),
		helixShape(),
		mesosShape(),
		pulsarLeaderShape(),
		pulsarBundleShape(),
		clickHouseShape(),
		hiveShape(),
		// Discovery lists such a node only when its path mentions lock or
		// mutex (LooksLikeLockNode); asked for by path, any is read.
		{Entry: Entry{Name: string(RecipeEphemeral), About: "a plain ephemeral node whose path mentions lock or mutex, in any case: its creator holds",
			Paths: []string{"/**"}, Grant: GrantSingleNode, Identity: "text"},
			hooks: hooks{claims: func(string, Node) bool { return true }, reads: readPlainNode}},
	}
}

// builtinEntries is the built-in entries, in the book's order, each
// saying it is built in and which hooks it has.
func builtinEntries() []Entry {
	shapes := builtinShapes()
	out := make([]Entry, len(shapes))
	for i, s := range shapes {
		out[i] = s.Entry
		out[i].Builtin, out[i].Source, out[i].Hooks = true, "built-in", s.hooks.set()
	}
	return out
}

// limitUnstated is a built-in semaphore's limit when its tree does not
// record it (Curator's maxLeases lives only in its clients).
const limitUnstated = "unstated"

// writeLockName: ZooKeeper's WriteLock names its node by its session id
// as a Java long in decimal, never negative, and counts a node only when
// the text after its last '-' reads as a Java int, which a wrapped
// sequence's (-2147483648) does not.
func writeLockName(vals partValues) bool {
	s, _ := vals.get(partSession)
	if !isDecimal(s) {
		return false
	}
	if _, err := strconv.ParseInt(s, 10, 64); err != nil {
		return false
	}
	seq, _ := vals.get(partSeq)
	_, err := strconv.ParseInt(strings.TrimPrefix(seq, "-"), 10, 32)
	return err == nil
}

// writeLockNames reads the names WriteLock writes and does not count,
// which its entry's pattern therefore leaves out: x-<session>- and a
// sequence that does not read as a Java int (the counter wrapped). The
// queue's reading knows WriteLock ignores them (zkRecipeHasSeq).
func writeLockNames(n *Name, body string) bool {
	s, ok := strings.CutPrefix(body, "x-")
	if !ok {
		return false
	}
	if s, ok = strings.CutSuffix(s, "-"); !ok || !isDecimal(s) {
		return false
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return false
	}
	n.Kind, n.Prefix, n.Session, n.HasSession = KindZKWriteLock, s, id, true
	return true
}

// sessionLockNames reads lock-<session>- with its session in a form
// {session} does not take, which the shape also writes: bare hex, or 0X.
func sessionLockNames(n *Name, body string) bool {
	s, ok := strings.CutPrefix(body, "lock-")
	if !ok {
		return false
	}
	if s, ok = strings.CutSuffix(s, "-"); !ok || s == "" {
		return false
	}
	id, ok := parseSessionText(s)
	if !ok {
		return false
	}
	n.Kind, n.Prefix, n.Session, n.HasSession = KindSessionLock, s, id, true
	return true
}

// unsignedSession: the session-tagged shape writes its session unsigned,
// in decimal or hex.
func unsignedSession(vals partValues) bool {
	s, _ := vals.get(partSession)
	_, ok := parseSessionText(s)
	return ok
}

// hasKazooReader: a parent of kazoo's names is a read/write lock only when
// a reader is among them; without one it is kazoo's Lock.
func hasKazooReader(names []string) bool {
	for _, n := range names {
		if strings.Contains(n, "__rlock__") {
			return true
		}
	}
	return false
}

// notProtected: a name with Curator's protected-mode prefix is Curator's,
// whatever it ends in.
func notProtected(vals partValues) bool {
	id, _ := vals.get(partID)
	return !strings.HasPrefix(id, curatorPrefix)
}

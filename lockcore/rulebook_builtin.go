package lockcore

// builtinEntries is every shape zklocks knows without being told: the lock
// clients' recipes, the classic shapes and the applications' own locks.
// Entries with Coded set are read by that Go code, which follows each
// client's quirks the fields cannot say (the order it sorts sequences in,
// which nodes it counts as contenders, an application's anomalies); their
// fields state the same rules, and TestBuiltinEntriesAgreeWithParser holds
// the two together. An entry without Coded is read by its fields alone,
// as a user's entry is.
func builtinEntries() []Entry {
	mutex := func(name, about, children string, order SeqOrder, coded string) Entry {
		return Entry{Name: name, About: about, Children: children, Grant: GrantMutex, Order: order, Coded: coded}
	}
	const (
		queue    = "parsename.go, queueorder.go"
		election = "parsename.go, queueorder.go"
	)
	return []Entry{
		mutex(string(RecipeCuratorMutex), "Apache Curator InterProcessMutex (also LeaderSelector), protected mode",
			"_c_{id:uuid}-lock-{seq}", OrderText,
			queue+", app_curator.go (a LeaderSelector's id in its node's data names the holder, which no identity rule states)"),
		{Name: string(RecipeCuratorRWLock), About: "Apache Curator InterProcessReadWriteLock",
			Children: "_c_{id:uuid}-{mode}{seq}", Modes: map[string]Mode{"__READ__": ModeRead, "__WRIT__": ModeWrite},
			Grant: GrantReadWrite, ReadWaitsOn: ReadFirstWrite, Order: OrderText,
			Coded: queue + " (a reader whose session holds the first write holds too)"},
		{Name: string(RecipeCuratorSemaphore), About: "Apache Curator InterProcessSemaphoreV2: lease nodes under leases/, acquirers' mutex under locks/",
			Children: "_c_{id:uuid}-lease-{seq}", Grant: GrantSemaphore, Limit: limitUnstated, Order: OrderText,
			Coded: "semaphore.go, shape.go (the tree shape: leases/ and locks/)"},
		// zk.Lock waits on every child whose text after the last '-' is a
		// number, whatever its shape: a lock with a child of another name is
		// read by the parser, which knows that, as it always was.
		mutex(string(RecipeGoZKLock), "go-zookeeper zk.Lock", "_c_{id:hex32}-lock-{seq}", OrderNumber, ""),
		// kazoo's ids are a uuid4's hex: {id:hex} leaves names of any other
		// id (and every lock holding one) to the parser, which reads them as
		// it always did, never taking a protected-mode _c_ name for kazoo's.
		mutex(string(RecipeKazooLock), "kazoo Lock (also Election)", "{id:hex}__lock__{seq}", OrderText, ""),
		{Name: string(RecipeKazooRWLock), About: "kazoo ReadLock and WriteLock sharing one path",
			Children: "{id}__{mode}__{seq}", Modes: map[string]Mode{"lock": ModeWrite, "rlock": ModeRead},
			Grant: GrantReadWrite, ReadWaitsOn: ReadNearestWrite, Order: OrderText,
			Coded: queue + ", watches.go (a reader before kazoo 2.9 waits on the newest write)"},
		{Name: string(RecipeKazooSemaphore), About: "kazoo Semaphore: one lease node per holder, max_leases in the node's data, acquirers queue in <path>-__lock__",
			Children: "{id:hex}", Grant: GrantSemaphore, Limit: "data", Waits: WaitChildren,
			Coded: "semaphore.go, shape.go (the sibling queue)"},
		mutex(string(RecipeZKWriteLock), "ZooKeeper's WriteLock recipe (x-<session>-<seq>)", "x-{session}-{seq}", OrderNumber,
			queue+" (the session a non-negative decimal long, narrower than {session}; and WriteLock sorts every child whose text after the last '-' reads as a Java int)"),
		{Name: string(RecipeCuratorLeaderLatch), About: "Apache Curator LeaderLatch: the lowest leads",
			Children: "_c_{id:uuid}-latch-{seq}", Grant: GrantElection, Order: OrderText, Identity: "text",
			Coded: election + ", app_curator.go"},
		{Name: string(RecipeZKElection), About: "ZooKeeper's LeaderElectionSupport recipe (n_<seq>)",
			Children: "n_{seq}", Grant: GrantElection, Order: OrderNumber},
		{Name: string(RecipeHostRW), About: "the classic host-tagged read/write lock (<host>-R-<seq>, <host>-W-<seq>)",
			Children: "{owner}-{mode}-{seq}", Modes: map[string]Mode{"R": ModeRead, "W": ModeWrite},
			Grant: GrantReadWrite, ReadWaitsOn: ReadNearestWrite, Order: OrderText},
		mutex(string(RecipeSessionLock), "the classic session-tagged lock (lock-<session>-<seq>)", "lock-{session}-{seq}", OrderText,
			queue+" (the session as the shape writes it: decimal up to 2^64-1 and never negative, 0x hex, or bare hex; {session} takes a negative decimal and no bare hex)"),
		{Name: string(RecipeEphemeral), About: "a plain ephemeral node whose path mentions lock or mutex, in any case: its creator holds",
			Paths: []string{"/**"}, Grant: GrantSingleNode, Identity: "text", Coded: "classify.go (the path's words)"},
		{Name: string(RecipeKafkaController), About: "Apache Kafka's controller election (/controller)",
			Paths: []string{"/**/controller"}, Grant: GrantSingleNode, Identity: "decoder:kafka-controller",
			Coded: "app_kafka.go (the broker registrations, the controller epoch)"},
		{Name: string(RecipeHadoopHA), About: "Hadoop's ActiveStandbyElector (HDFS NameNode, YARN ResourceManager HA)",
			Paths: []string{"/**/ActiveStandbyElectorLock"}, Grant: GrantSingleNode, Identity: "decoder:hadoop-active",
			Coded: "app_hadoop.go (the breadcrumb, fencing)"},
		{Name: string(RecipeHBaseMaster), About: "Apache HBase's active master (/hbase/master)",
			Paths: []string{"/**/master"}, Grant: GrantSingleNode, Identity: "decoder:hbase-master",
			Coded: "app_hbase.go (the backup masters)"},
		{Name: string(RecipeSolrElection), About: "Apache SolrCloud's elections (overseer, shard leaders)",
			Children: "{session}-{id}-n_{seq}", Grant: GrantElection, Order: OrderNumber,
			Coded: "parsename_apps.go, app_solr.go (the leader node, equal sequences ordered by name)"},
		{Name: string(RecipeAccumuloLock), About: "Apache Accumulo's ServiceLock (zlock#<uuid>#<seq>; zlock-<seq> before 2.1)",
			Children: "zlock#{id:uuid}#{seq}", Grant: GrantElection, Identity: "decoder:accumulo-lock", Order: OrderText,
			Coded: "parsename_apps.go, app_accumulo.go (a waiter watches the lowest of its predecessor's run)"},
		{Name: string(RecipeAccumuloFate), About: "Apache Accumulo's FATE table locks (flock#<seq>, read or write in the data)",
			Children: "flock#{id}#{seq}", Grant: GrantReadWrite, Persistent: true, Order: OrderNumber,
			Coded: "parsename_apps.go, app_accumulo.go (the mode and transaction from the data)"},
		{Name: string(RecipeHBaseTableLock), About: "Apache HBase 1.x table locks (ZKInterProcessReadWriteLock; removed in 2.0)",
			Paths: []string{"/**/table-lock/*"}, Children: "{mode}-{owner}{seq}", Modes: map[string]Mode{"read": ModeRead, "write": ModeWrite},
			Grant: GrantReadWrite, ReadWaitsOn: ReadNearestWrite, Order: OrderNumber, Identity: "decoder:hbase-table-lock"},
		{Name: string(RecipeHelixController), About: "Apache Helix's controller leader (/<cluster>/CONTROLLER/LEADER)",
			Paths: []string{"/**/CONTROLLER/LEADER"}, Grant: GrantSingleNode, Identity: "json:id",
			Coded: "app_helix.go (SESSION_ID against the node's owner; CONTROLLER/HISTORY as the previous leaders)"},
		{Name: string(RecipeMesos), About: "Apache Mesos's leading master (json.info_<seq>, info_<seq> before 0.24, in the group /mesos)",
			Children: "json.info_{seq}", Grant: GrantElection, Waits: WaitChildren, Identity: "json:hostname",
			Coded: "parsename_apps.go, app_mesos.go (info_ too; log_replicas beside the masters is no member; Aurora's member_ beside a latch)"},
		{Name: string(RecipePulsarLeader), About: "Apache Pulsar's load manager leader (/loadbalance/leader)",
			Paths: []string{"/**/loadbalance/leader"}, Grant: GrantSingleNode, Identity: "json:serviceUrl",
			Coded: "app_pulsar.go (the registered brokers; a leader with no registration)"},
		{Name: string(RecipePulsarBundle), About: "Apache Pulsar's namespace bundle ownership (/namespace/<tenant>/<namespace>/<0xLOW_0xHIGH>)",
			Paths: []string{"/**/namespace/**/0x*_0x*"}, Grant: GrantSingleNode, Identity: "json:nativeUrl",
			Coded: "app_pulsar.go (the owner's registration; a bundle being unloaded)"},
		{Name: string(RecipeClickHouseDDL), About: "ClickHouse's distributed DDL queue: a task's executing hosts under <queue>/query-<seq>/active",
			Paths: []string{"/**/query-*"}, Children: "{owner}", Grant: GrantCoHolding, Waits: WaitNothing, Identity: "name:owner",
			Coded: "app_clickhouse.go (active/ and finished/; a host active with no live session and no finished node is a stuck task)"},
		{Name: string(RecipeHive), About: "Apache Hive's ZooKeeperHiveLockManager (LOCK-<mode>-<seq> under /<namespace>/<db>/<table>/<partition>)",
			Children: "LOCK-{mode}-{seq}", Modes: map[string]Mode{hiveShared: ModeRead, hiveExclusive: ModeWrite, hiveSemiShared: ModeRead},
			Grant: GrantCoHolding, Persistent: true, Identity: "data:^([^:]+):",
			Coded: "parsename_apps.go, app_hive.go (a node a lower one conflicts with gives up; LOCK TABLE's explicit locks; the query and HiveServer2 host)"},
	}
}

// limitUnstated is a built-in semaphore's limit when its tree does not
// record it (Curator's maxLeases lives only in its clients).
const limitUnstated = "unstated"

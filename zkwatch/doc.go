// Package zkwatch knows what the cluster says: one session's connection,
// the locks it watches, and what the ensemble's members say of their
// clients and watches. It never imports Bubble Tea; asking a member a
// four-letter word or an AdminServer command, and reading the answer, is
// its leaf package words.
//
// # Connection
//
// Dial makes a Conn: one go-zookeeper session to a Target (target.go),
// with TLS, credentials and a log of its own (conn.go, tls.go, auth.go,
// logfile.go), giving up early on servers that refuse (dialfail.go);
// Another dials a second session like it (another.go). A Conn reads a
// lock whole (readtree.go), one node or a directory's names for a viewer
// (nodedetail.go), and lends itself to lockcore's lock client with paths
// inside its chroot (lockzk.go). ConnPhase and ConnState say where the
// session stands (connphase.go).
//
// # Watcher
//
// Watch starts a Watcher on a Conn: its configuration, its main loop
// (run) and what each round is asked to do are in watcher.go, its Events
// in event.go (an operator's actions among them, which the program adds
// and a Watcher never sends). Its state is in parts by concern, each
// declared beside the methods that use it and saying which goroutines
// touch it, under the Watcher's one mutex: the watches armed and fired
// (watches.go), the sync markers (sync.go), the session's phase as it
// reports it (conntrack.go), and the parts below.
//
// Tracking reads each lock found, arms its watches and reports its
// analysis again when one fires (track.go, the children not read before
// in trackread.go, the related nodes an application keeps elsewhere in
// related.go), and again when the watch table changes (analyze.go); a
// plain ephemeral lock node that went stays listed, free, for a grace
// (plainlock.go). islock.go decides whether a node is a lock;
// observermark.go arms the mark that tells other zklocks watchers this
// session is one of them; pool.go bounds the reads in flight.
//
// Discovery finds the locks without watching the whole tree: the first
// walk and the loops that keep looking (discovery.go, its progress as
// Discovery in discoverystate.go), the dump's ephemeral nodes as
// candidate lock parents (candidates.go) and a walk paced to a read rate
// (treewalk.go).
//
// Directory watches see a new lock at once: a children watch on each
// directory that holds locks, or a poll of one too big to watch
// (lockdirs.go, dirpoll.go); in a tree small enough, on every directory
// (watchwhole.go).
//
// The fill reads, after the first sync, the contenders that sync
// reported from the dump's listing alone (ReadLater), holders and the
// focused lock first (fill.go).
//
// # Members
//
// Enrichment asks every member for its status, clients and watch table
// (Enricher in enricher.go and enricher_ask.go, the merged picture in
// enrichment.go, what cons says of each session's silence in silence.go)
// on a period while a Watcher runs (enrichloop.go), keeping of the watch
// table what the locks shown need (Interest, WatchMode in watchmode.go).
// Links says of some sessions whether a member holds a connection for
// each, and when one that none holds is due to expire (readlinks.go). The
// server table is every member's watch table read once and merged, for a
// command that runs no Watcher (servertable.go); the
// ensemble's members come from /zookeeper/config (members.go); the
// doctor asks each member every way and says what answers
// (doctor.go). servernotes.go says in a line how each member answered
// and what to fix when none can.
package zkwatch

// Package zkwatch knows what the cluster says: one session's connection,
// the locks it watches, and what the ensemble's members say of their
// clients and watches. It never imports Bubble Tea. Below it are the
// packages it builds on: jute (ZooKeeper's record encoding), sasl (the
// client side of the SASL mechanisms), session (a session of zklocks' own
// for the requests go-zookeeper does not send) and words (asking a member
// a four-letter word or an AdminServer command, and reading the answer).
//
// # Connection
//
// Dial makes a Conn: one go-zookeeper session to a Target, with TLS, and
// giving up early on servers that refuse (target.go), credentials and a
// log of its own (conn.go, auth.go, logfile.go). Each connection runs the
// SASL exchange and zkwatch's own requests below go-zookeeper (authconn.go,
// authstate.go, saslexchange.go); whoami.go says who the session is and
// whether the cluster requires authentication, access.go whether an ACL
// lets it act. A Conn reads a lock whole (readtree.go), one node or a
// directory's names for a viewer, dials a second session like it, and
// lends itself to the lock client (lockclient) with paths inside its chroot
// (lent.go). ConnPhase and ConnState say where the session stands
// (conntrack.go).
//
// # Watcher
//
// Watch starts a Watcher on a Conn: its configuration, its main loop
// (run) and what each round is asked to do are in watcher.go, its Events
// in event.go (an operator's actions among them, which the program adds
// and a Watcher never sends). Its state is in parts by concern, each
// declared beside the methods that use it and saying which goroutines
// touch it, under the Watcher's one mutex: the watches armed and fired,
// with the reads that arm them and the pool that bounds them (watches.go),
// the sync markers (sync.go), the session's phase as it reports it
// (conntrack.go), and the parts below.
//
// Tracking reads each lock found, arms its watches and reports its
// analysis again when one fires (track.go, the children not read before
// and the analysis again when the watch table changes in trackread.go);
// a plain ephemeral lock node that went stays listed, free, for a grace
// (plainlock.go). islock.go decides whether a node is a lock, and reads
// the related nodes an application keeps elsewhere.
//
// Discovery finds the locks without watching the whole tree, a part of
// the Watcher of its own (the discoverer): the first walk, the loops that
// keep looking and the mark that tells other zklocks watchers this
// session is one of them (discovery.go), its progress as Discovery and
// its pacing (discoverystate.go), the dump's ephemeral nodes as candidate
// lock parents (candidates.go) and a walk paced to a read rate
// (treewalk.go). Directory watches see a new lock at once: a children
// watch on each directory that holds locks, or a poll of one too big to
// watch, and in a tree small enough one on every directory (dirwatches.go,
// lockdirs.go). On ZooKeeper 3.6 and later a persistent recursive watch on
// a session of zklocks' own finds a new lock anywhere at once (pwatch.go,
// its notifications' filter and queue in pwatchqueue.go).
//
// The fill reads, after the first sync, the contenders that sync
// reported from the dump's listing alone (ReadLater), holders and the
// focused lock first (fill.go).
//
// # Members
//
// Enrichment asks every member for its status, clients and watch table
// (Enricher in enricher.go and enricher_ask.go, the merged picture in
// enrichment.go, what cons says of each session's silence, by the
// member's clock tied to ours, in silence.go) on a period while a Watcher
// runs (enrichloop.go), keeping of the watch table what the locks shown
// need (Interest). Links says of some sessions whether a member holds a
// connection for each, and when one that none holds is due to expire
// (readlinks.go); clients' host names are resolved in hostnames.go. The
// server table is every member's watch table read once and merged, for a
// command that runs no Watcher, with WatchMode and the line that says how
// each member answered and what to fix when none can (servertable.go);
// the ensemble's members come from /zookeeper/config (members.go); the
// doctor asks each member every way and says what answers (doctor.go).
package zkwatch

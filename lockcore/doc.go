// Package lockcore knows what a ZooKeeper lock is; package lockclient takes,
// gives back and breaks locks by what lockcore says of them.
//
// Analysis. It recognises the trees that real lock clients write (Apache
// Curator, kazoo, go-zookeeper, ZooKeeper's own lock recipe and the classic
// textbook shapes), reads contender names by the built-in rule book
// ([ParseName]), and analyses one
// lock parent into its participants in queue order ([Analyze]): who holds,
// who waits, which node each waiter watches, the chain from a waiter to a
// holder, and what looks wrong ([Anomaly]). Analysis is a pure function of
// what was read ([Tree]) and, when the servers gave it, their watch table
// ([WatchTable]); it performs no I/O. Everything it reports is a statement
// about the moment the tree was read: by the time a caller acts on it,
// contenders may have come or gone.
//
// The rule book (rulebook*.go). Every lock shape zklocks understands is one
// declarative [Entry] of a [Book]: where it applies, how its contenders are
// named, what their mode words mean, its grant rule, how waiters wait and
// how a holder is named. The built-in entries (the clients' recipes, the
// classic shapes, the applications) and the user's, from the config file,
// are read alike by [Analyze] (Options.Book), by discovery ([Book.Classify],
// [Book.IsLockNode]) and by [Book.Explain]; a lock no entry describes is read
// by a fallback rule whose guesses are kept in Lock.Assumed. What a
// client's or an application's tree tells beyond its entry's fields (a
// semaphore's two trees, Accumulo's runs, Hive's giving up, Curator's
// reader holding by its session's write, an application's registrations
// and epochs) is a named hook beside the entry, in its file, registered
// with it (rulebook_hooks.go): no entry is read by code the book does not
// reach.
//
// What may be done with a lock of each recipe (joinrules.go) and how much
// each anomaly matters, asked by the UI and the command line alike: the modes a lock can be joined in ([JoinModes], [Modes],
// [JoinableRecipes]), which nodes can be asked to release ([CheckRevocable])
// and anomaly severity ([AnomalyKind.Severity], [Worst]).
//
// For our own lock client, the names its contenders take, written from
// their entries' patterns ([NodePrefix], [LeaseName]), the recipe it joins ([DetectRecipe]) and where a contender
// stands ([StandingOf]); for acting on other sessions' nodes, which of them
// fencing could delete ([FenceCandidates]) and what an act was ([Action]).
// Errors are the sentinels in errors.go, wrapped with the path; match them
// with errors.Is.
package lockcore

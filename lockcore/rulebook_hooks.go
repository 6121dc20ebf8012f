package lockcore

// hooks are what a built-in entry's fields cannot state, each one named and
// kept beside the entry in its application's file (k9s keeps a resource's
// renderer beside it the same way): a new application touches one file.
type hooks struct {
	// claims says whether a plain ephemeral node at lockPath is this
	// single-node entry's, by what its path and data say.
	claims func(lockPath string, self Node) bool
	// names recognises the child names the entry's client writes that its
	// pattern cannot also state (an older form, a node it writes and does
	// not count, a registration beside the lock), given a name's body
	// before its sequence suffix: it reports whether the body is of that
	// form, and fills n when it reads as one.
	names func(n *Name, body string) (claimed bool)
	// app says what the application's own tree tells about the lock
	// beyond its queue: who holds in its terms, its members, its token,
	// its failure signs.
	app func(l *Lock, t Tree)
	// accepts narrows the entry's pattern to the names its client writes,
	// given the parts the pattern read: the form of a session its client
	// gives, where {session} takes any session's.
	accepts func(vals partValues) bool
	// lockHas says whether a lock whose every child the entry's pattern
	// reads is the entry's, by what is among its children (kazoo's
	// read/write lock needs a reader).
	lockHas func(names []string) bool
	// kind gives a contender the pattern read, in the entry's own
	// reading, its kind (kinds) rather than the book's: for the watches
	// its client's kind is known to set (kazoo's reader), or the order
	// its client keeps (Solr's). ownKinds is the one kind hook.
	kind func(kinds map[string]NameKind, vals partValues) NameKind
	// kinds is what ParseName says of a name the entry's pattern reads:
	// its kind by its mode word ("" for a name without one). An entry
	// without kinds leaves its names to the entries after it and to the
	// fallback.
	kinds map[string]NameKind
	// readsOwnWrite says, for a read-write entry, whether a reader holds
	// although the first write is ahead of it, because its own session
	// holds that write (Curator lets the write holder take the read lock
	// at once), and the note that says so.
	readsOwnWrite func(read, firstWrite *entry) (note string, holds bool)
	// extra names the directories whose children the lock's reading needs
	// besides its own (Kafka's broker registrations), related the nodes
	// beside it that it reads (Kafka's epoch); nil when none.
	extra, related func(lockPath string, self Node, childNames []string) []string
	// shape says whether a tree is the entry's by what its pattern cannot
	// state: a semaphore's directories, a DDL task's active/, the names
	// its application's names hook reads. The entry's paths still apply.
	shape func(f treeFacts) bool
	// reads reads the lock where no grant rule states how its client
	// does: a semaphore's lease nodes beside its acquirers' queue,
	// Accumulo's runs, Hive's giving up, a plain node's holder.
	reads func(l *Lock, t Tree, w *WatchTable) []*entry
	// The queue's reading (readQueue) asks the entry of each kind of
	// contender present: mode reads a contender's mode where no mode word
	// states it (FATE's in the data, Hive's SEMI_SHARED); waitsFor is the
	// node a waiter watches instead of its predecessor (the lowest of
	// Accumulo's run); rules decides the kind's contenders once every
	// one has its queue rule (Hive's giving up, Mesos's waiters on the
	// group); beside says which other children belong there by design
	// (Hive's objects below, Mesos's log_replicas, Aurora's announcement).
	mode     func(e *entry) (Mode, string)
	waitsFor func(ahead *queueView) *entry
	rules    func(entries []*entry, dir string)
	beside   func(n Name) bool
}

// kindHooks is the hooks of the built-in entry whose contenders the
// parser reads as kind k; none for a kind no entry has.
func kindHooks(k NameKind) hooks {
	if kc, ok := builtinBook().kinds[k]; ok {
		return kc.entry.hooks
	}
	return hooks{}
}

// set lists the hooks h sets, by the names the rule book's reference
// gives them, for zklocks recipes and explain.
func (h hooks) set() []string {
	var out []string
	for _, k := range []struct {
		name string
		set  bool
	}{
		{"shape", h.shape != nil}, {"claims", h.claims != nil}, {"names", h.names != nil},
		{"accepts", h.accepts != nil}, {"lockHas", h.lockHas != nil}, {"kind", h.kind != nil},
		{"reads", h.reads != nil}, {"mode", h.mode != nil}, {"waitsFor", h.waitsFor != nil}, {"rules", h.rules != nil},
		{"beside", h.beside != nil}, {"readsOwnWrite", h.readsOwnWrite != nil}, {"app", h.app != nil},
		{"extra", h.extra != nil}, {"related", h.related != nil},
	} {
		if k.set {
			out = append(out, k.name)
		}
	}
	return out
}

// ownKinds is the kind hook: a contender's kind by its mode word, as
// ParseName reads it.
func ownKinds(kinds map[string]NameKind, vals partValues) NameKind {
	mode, _ := vals.get(partMode)
	if k, ok := kinds[mode]; ok {
		return k
	}
	return kinds[""]
}

// builtin is one built-in shape: its rule book entry and its hooks.
type builtin struct {
	Entry
	hooks
}

// appNamed reads a child's name by the applications' name hooks (what
// their entries' patterns cannot state), in the book's order: the first
// one to claim the body decides, and the name is the application's when
// it filled n.
func appNamed(n *Name, body string) bool {
	for _, c := range builtinBook().named {
		if c.hooks.names(n, body) {
			return n.Kind != KindUnparsed
		}
	}
	return false
}

// readApp lets the application whose lock l is say what its tree tells:
// the built-in entry named by l's recipe, or, for a plain ephemeral node,
// the single-node entry that claims it.
func readApp(l *Lock, t Tree) {
	for _, c := range builtinBook().apps {
		mine := l.Recipe == Recipe(c.Name)
		if c.hooks.claims != nil {
			mine = l.Recipe == RecipeEphemeral && c.hooks.claims(t.Path, t.Self)
		}
		if mine {
			c.hooks.app(l, t)
			break
		}
	}
	if l.App != nil && t.Self.Ephemeral() && len(t.Children) == 0 && l.WatchesSource != WatchesFromServer {
		l.App.Notes = append(l.App.Notes, "the candidates waiting for this node hold no node of their own: only the servers' watch table shows them, and it was not read")
	}
}

// singleNodeApp is an application's election by one node: its paths, its
// holder named by identity, the node claimed and read by its hooks.
// Its node is read as a plain one (readPlainNode); its app hook names it
// after the application.
func singleNodeApp(r Recipe, about, paths, identity string, claims func(string, Node) bool, app func(*Lock, Tree)) builtin {
	return builtin{Entry: Entry{Name: string(r), About: about, Paths: []string{paths}, Grant: GrantSingleNode, Identity: identity},
		hooks: hooks{claims: claims, app: app, reads: readPlainNode}}
}

// besideNode is an extra or related hook naming the node beside a
// single-node election that beside gives ("" for none), for a childless
// ephemeral node that claims takes.
func besideNode(claims func(string, Node) bool, beside func(lockPath string, self Node) string) func(string, Node, []string) []string {
	return func(p string, self Node, children []string) []string {
		if len(children) > 0 || !self.Ephemeral() || !claims(p, self) {
			return nil
		}
		if b := beside(p, self); b != "" {
			return []string{b}
		}
		return nil
	}
}

// treeFacts is what a shape hook is told of a lock's tree: its path, its
// children's names, and what the parser reads of them (scanTree). It is
// passed by value, so that the view asked stays on the asker's stack.
type treeFacts struct {
	path   string
	names  []string
	shape  shape
	family string
}

// treeView is a lock's tree as the book's entries are asked about it, its
// facts worked out once, when the first shape hook asks.
type treeView struct {
	path  string
	self  Node
	names []string
	// parsed is ParseName of each of names, or nil when not parsed yet.
	parsed  []Name
	scanned bool
	known   treeFacts
}

func (v *treeView) facts() treeFacts {
	if !v.scanned {
		s, fam := scanTree(v.self, v.names, v.parsed)
		v.known, v.scanned = treeFacts{path: v.path, names: v.names, shape: s, family: fam}, true
	}
	return v.known
}

// shapeIs is a shape hook taking the trees of one of the semaphores'
// shapes.
func shapeIs(s shape) func(treeFacts) bool {
	return func(f treeFacts) bool { return f.shape == s }
}

// parsedAs is a shape hook taking a tree whose contenders are all of
// kind k's family, as the names hooks read them: an application's queue
// whose names one pattern cannot state (Accumulo's zlock- before 2.1,
// Mesos's info_ before 0.24) or beside which other nodes belong (Hive's
// objects below the locked one).
func parsedAs(k NameKind) func(treeFacts) bool {
	return func(f treeFacts) bool { return f.family == family(k) }
}

// readQueue is a reads hook: the queue read by each contender's own
// kind's rules (queueorder.go), as the names hooks read them: Accumulo's
// waiter watching the lowest of its predecessor's run, FATE's mode in the
// data, Hive's co-holder giving up, Mesos's waiters watching the group.
func readQueue(l *Lock, t Tree, _ *WatchTable) []*entry {
	return queueEntries(l, t.Path, t.Children)
}

// readPlainNode is a single-node entry's reads hook: its creator holds,
// the sessions watching it wait, and a word in its name says its mode.
// An application's app hook then names it after the application.
func readPlainNode(l *Lock, t Tree, w *WatchTable) []*entry {
	entries := ephemeralEntries(l, t, w)
	assumeNodeWord(entries)
	return entries
}

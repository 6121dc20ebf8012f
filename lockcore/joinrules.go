package lockcore

import (
	"fmt"
	"slices"
	"strings"
)

// The rule book: what zklocks may do with a lock of each recipe, and how
// much each anomaly matters. The UI and the command line ask here rather
// than restating the rules.

// Modes are the participant modes a lock can be joined in, in the order
// help lists them.
func Modes() []Mode { return []Mode{ModeExclusive, ModeRead, ModeWrite, ModeLease} }

// ParseMode returns the mode named s, or an error that lists the modes.
func ParseMode(s string) (Mode, error) {
	if m := Mode(s); slices.Contains(Modes(), m) {
		return m, nil
	}
	return "", fmt.Errorf("mode must be %s, not %q", orList(Modes()), s)
}

// JoinableRecipes are the recipes zklocks' own client can join a lock as,
// when named in Spec.Recipe, in the order help lists them.
func JoinableRecipes() []Recipe {
	return []Recipe{RecipeCuratorMutex, RecipeCuratorRWLock, RecipeCuratorSemaphore, RecipeGoZKLock, RecipeKazooLock,
		RecipeKazooRWLock, RecipeKazooSemaphore, RecipeZKWriteLock, RecipeHostRW, RecipeSessionLock}
}

// JoinModes are the modes zklocks' client can join a lock in whose
// analysis found recipe (Lock.Recipe), leaving the recipe to DetectRecipe,
// or why it cannot join that lock at all.
func JoinModes(recipe Recipe) ([]Mode, string) {
	x, r, w, l := ModeExclusive, ModeRead, ModeWrite, ModeLease
	switch recipe {
	case RecipeCuratorMutex, RecipeGoZKLock, RecipeZKWriteLock, RecipeSessionLock:
		return []Mode{x}, ""
	case RecipeKazooLock:
		return []Mode{x, r}, "" // a read turns the parent into a kazoo read-write lock
	case RecipeCuratorRWLock, RecipeKazooRWLock, RecipeHostRW:
		return []Mode{r, w}, ""
	case RecipeCuratorSemaphore, RecipeKazooSemaphore:
		return []Mode{l}, ""
	case RecipeEmpty:
		return []Mode{x, r, w, l}, "" // Curator's recipes, as DetectRecipe picks
	case RecipeMixed:
		return nil, "contenders of several recipes share it, so no one way to queue is right (zklocks acquire --recipe can choose)"
	case RecipeEphemeral:
		return nil, "a plain ephemeral lock node has no queue to join"
	case RecipeKafkaController, RecipeHadoopHA, RecipeHBaseMaster, RecipeSolrElection, RecipeAccumuloLock, RecipeAccumuloFate,
		RecipeHive, RecipeHBaseTableLock, RecipeHelixController, RecipeMesos,
		RecipePulsarLeader, RecipePulsarBundle, RecipeClickHouseDDL:
		return nil, "it is an application's own election or lock: only that application's processes take part in it"
	}
	return nil, "its children match no recipe zklocks can join"
}

// IsSemaphore reports whether recipe hands out leases rather than one lock.
func IsSemaphore(recipe Recipe) bool {
	return recipe == RecipeCuratorSemaphore || recipe == RecipeKazooSemaphore
}

// CheckRevocable says whether the client owning the contender node named
// name (its last path element) can act on a revocation request (Revoke):
// only Curator's mutex and read-write lock clients watch their node for
// one, and only a node that a session owns (session is not 0) has a
// client to ask. Otherwise it returns an error wrapping ErrNotRevocable
// that says why.
func CheckRevocable(name string, session int64) error {
	kind := ParseName(name).Kind
	switch {
	case session == 0:
		return fmt.Errorf("%w: no session owns the node, so there is no client to ask", ErrNotRevocable)
	case kind == KindCuratorLock, kind == KindCuratorRead, kind == KindCuratorWrite:
		return nil
	}
	return fmt.Errorf("%w: only a Curator lock (mutex, read, write) understands a revocation request; "+
		"this %s node's client would ignore it", ErrNotRevocable, kind)
}

// AnomalyKinds are every anomaly kind the analysis reports, in the order
// help lists them.
func AnomalyKinds() []AnomalyKind {
	return []AnomalyKind{AnomalyWaitCycle, AnomalyUnwatchedWaiter, AnomalySelfWait, AnomalyPersistent, AnomalyMixedRecipes, AnomalyDisconnectedHolder,
		AnomalySilentHolder, AnomalyUnfenced, AnomalyHolderUnregistered, AnomalyLeaderWithoutCandidate, AnomalyBackupIsActive, AnomalyDuplicateSeq,
		AnomalyExplicitLock, AnomalySessionMismatch, AnomalyStuckTask,
		AnomalyDisconnectedWaiter, AnomalyHerd, AnomalyDuplicateSession, AnomalyLongHeld, AnomalyUnparsed}
}

// ParseAnomalyKind returns the kind named s, or an error that lists them.
func ParseAnomalyKind(s string) (AnomalyKind, error) {
	if k := AnomalyKind(s); slices.Contains(AnomalyKinds(), k) {
		return k, nil
	}
	return "", fmt.Errorf("anomaly kind must be %s, not %q", orList(AnomalyKinds()), s)
}

// Anomaly severities, from Severity.
const (
	// SeverityStray: a stray node, worth knowing of.
	SeverityStray = 0
	// SeverityLook: deserves a look (a herd, a long hold, a session with
	// several contenders).
	SeverityLook = 1
	// SeverityStuck: does not resolve on its own (a waiter that never
	// wakes, two holders at once, a node no session owns), or holds
	// everyone up until a session times out (a holder whose client is
	// gone).
	SeverityStuck = 2
)

// Severity ranks an anomaly kind: SeverityStuck, SeverityLook or
// SeverityStray.
func (k AnomalyKind) Severity() int {
	switch k {
	case AnomalyWaitCycle, AnomalyUnwatchedWaiter, AnomalySelfWait, AnomalyMixedRecipes, AnomalyPersistent, AnomalyDisconnectedHolder, AnomalySilentHolder:
		return SeverityStuck
	case AnomalyUnparsed:
		return SeverityStray
	}
	return SeverityLook
}

// Worst returns the most severe of kinds, the first among equals; "" for
// none.
func Worst(kinds []AnomalyKind) AnomalyKind {
	var w AnomalyKind
	for i, k := range kinds {
		if i == 0 || k.Severity() > w.Severity() {
			w = k
		}
	}
	return w
}

// orList joins values as "a, b, c or d".
func orList[T ~string](values []T) string {
	s := make([]string, len(values))
	for i, v := range values {
		s[i] = string(v)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

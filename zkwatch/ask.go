package zkwatch

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"
)

// reader reads one answer to a word, whichever way it comes: the four-letter
// word's text, or the JSON of the AdminServer command that stands for it.
type reader struct {
	text func(*bufio.Reader) error
	json adminField
}

// textReader reads a whole four-letter-word answer into *s, for the small
// ones (srvr, cons, wchs).
func textReader(s *string) func(*bufio.Reader) error {
	return func(r *bufio.Reader) error {
		var b strings.Builder
		_, err := r.WriteTo(&b)
		*s = b.String()
		return err
	}
}

// ways is how to ask members: four-letter words over plain TCP or TLS, and
// the AdminServer where one answers.
type ways struct {
	tls   *tls.Config
	admin *AdminServer
	costs *Costs
	// memory, if not nil, remembers refusals and missing AdminServers
	// across askEither calls.
	memory *wayMemory
}

// wayMemory remembers, per member, the words it refused (a whitelist
// changes only with a restart) and, for adminRetry, why it has no
// AdminServer: a port that refused a moment ago may be a member that was
// restarting. It is safe for concurrent use.
type wayMemory struct {
	mu      sync.Mutex
	refused map[string]map[string]bool
	noAdmin map[string]missingAdmin
	via     map[string]map[string]Via // how each word last answered
}

// adminRetry is how long a member found without an AdminServer is not
// asked for one again.
const adminRetry = time.Minute

// missingAdmin is why a member had no AdminServer, and when that was
// found.
type missingAdmin struct {
	err error
	at  time.Time
}

func newWayMemory() *wayMemory {
	return &wayMemory{refused: map[string]map[string]bool{}, noAdmin: map[string]missingAdmin{}, via: map[string]map[string]Via{}}
}

// recall returns whether member refused word, and why it has no
// AdminServer (nil when it may have one).
func (m *wayMemory) recall(member, word string) (bool, error) {
	if m == nil {
		return false, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var noAdmin error
	if missing, ok := m.noAdmin[member]; ok && time.Since(missing.at) < adminRetry {
		noAdmin = missing.err
	}
	return m.refused[member][word], noAdmin
}

// learn remembers what an ask found: how it was answered (via, "" for
// not at all) and why each way did not answer.
func (m *wayMemory) learn(member, word string, via Via, wordErr, adminErr error) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if via != "" {
		if m.via[member] == nil {
			m.via[member] = map[string]Via{}
		}
		m.via[member][word] = via
	}
	if errors.Is(wordErr, ErrFourLetterRefused) && word != "srvr" {
		if m.refused[member] == nil {
			m.refused[member] = map[string]bool{}
		}
		m.refused[member][word] = true
	}
	if errors.Is(adminErr, ErrAdminUnavailable) {
		// The error recall gave back is not news: it keeps its time.
		if adminErr != m.noAdmin[member].err {
			m.noAdmin[member] = missingAdmin{err: adminErr, at: time.Now()}
		}
	}
}

// ask asks member for word by four-letter word, unless skipWord (refused
// before), and then, if the word is refused or skipped, by the AdminServer
// command that stands for it, unless the AdminServer is off or noAdmin
// (known to be missing). It returns the way that answered; wordErr is why
// the four-letter word did not answer (nil if it did or was not asked),
// also when the AdminServer then did; adminErr why the AdminServer did not
// (nil if it did or was not asked). A four-letter
// word that fails without being refused (a timeout, a member not serving)
// is not asked of the AdminServer: the member itself is in trouble.
func (w ways) ask(ctx context.Context, member, word string, r reader, skipWord bool, noAdmin error) (via Via, wordErr, adminErr error) {
	if skipWord {
		wordErr = fmt.Errorf("%w: %s (%s, before)", ErrFourLetterRefused, word, member)
	} else {
		_, wordErr = FourLetterStream(ctx, member, word, w.tls, w.costs, r.text)
		if wordErr == nil {
			return ViaWord, nil, nil
		}
		if !errors.Is(wordErr, ErrFourLetterRefused) {
			return "", wordErr, nil
		}
	}
	switch {
	case noAdmin != nil:
		return "", wordErr, noAdmin
	case !w.admin.Enabled():
		return "", wordErr, errAdminOff
	}
	if _, adminErr = AdminStream(ctx, w.admin, member, word, w.costs, r.json); adminErr == nil {
		return ViaAdmin, wordErr, nil // the refusal is still to be remembered
	}
	return "", wordErr, adminErr
}

// errAdminOff is why a member's AdminServer is not asked when asking it is
// turned off.
var errAdminOff = fmt.Errorf("%w: asking it is turned off", ErrAdminUnavailable)

// noWayError is a word no way answered: refused as a four-letter word, and
// not answered by the AdminServer either.
type noWayError struct {
	word, admin error
}

// Error says both causes.
func (e *noWayError) Error() string { return fmt.Sprintf("%v; %v", e.word, e.admin) }

// Unwrap gives the refusal only when the AdminServer is missing (not when it
// merely failed this time), so that a caller that stops asking a refused
// word stops only when no way can answer it.
func (e *noWayError) Unwrap() []error {
	if errors.Is(e.admin, ErrAdminUnavailable) {
		return []error{e.word, e.admin}
	}
	return []error{e.admin}
}

// askErr is the error of an ask that got no answer.
func askErr(wordErr, adminErr error) error {
	if adminErr == nil {
		return wordErr
	}
	return &noWayError{word: wordErr, admin: adminErr}
}

// askEither asks member for word whichever way answers, skipping what
// w.memory remembers refused or missing, and returns an error built by
// askErr.
func (w ways) askEither(ctx context.Context, member, word string, r reader) (Via, error) {
	refused, noAdmin := w.memory.recall(member, word)
	via, wordErr, adminErr := w.ask(ctx, member, word, r, refused, noAdmin)
	w.memory.learn(member, word, via, wordErr, adminErr)
	if via != "" {
		return via, nil
	}
	return "", askErr(wordErr, adminErr)
}

// answered returns how each word last answered each member, by member.
func (m *wayMemory) answered() map[string]map[string]Via {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]map[string]Via, len(m.via))
	for member, words := range m.via {
		out[member] = maps.Clone(words)
	}
	return out
}

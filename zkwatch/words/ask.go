package words

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"
)

// Reader reads one answer to a word, whichever way it comes: the four-letter
// word's text, or the JSON of the AdminServer command that stands for it.
type Reader struct {
	// Text reads the four-letter word's answer as it arrives.
	Text func(*bufio.Reader) error
	// JSON reads the AdminServer command's answer, key by key.
	JSON AdminField
	// Whole reads the answer whole before Text or JSON sees it, so that
	// the member's connection, its turn and the time counted against it
	// end when the answer has arrived, not when this process has parsed
	// it: a dump of megabytes, parsed as it came on a loaded machine, was
	// counted as the member's time. Without it the answer is parsed as it
	// arrives, in memory that grows only with what the reader keeps.
	Whole bool
}

// TextReader reads a whole four-letter-word answer into *s, for the small
// ones (srvr, cons, wchs).
func TextReader(s *string) func(*bufio.Reader) error {
	return func(r *bufio.Reader) error {
		var b strings.Builder
		_, err := r.WriteTo(&b)
		*s = b.String()
		return err
	}
}

// Ways is how to ask members: four-letter words over plain TCP or TLS, and
// the AdminServer where one answers.
type Ways struct {
	// TLS, if not nil, asks four-letter words over TLS.
	TLS *tls.Config
	// Admin says where the AdminServers are; nil or Off asks none.
	Admin *AdminServer
	// Costs, if not nil, records every ask.
	Costs *Costs
	// Memory, if not nil, remembers refusals and missing AdminServers
	// across AskEither calls.
	Memory *WayMemory
}

// WayMemory remembers, per member, the words it refused (a whitelist
// changes only with a restart) and, for AdminRetry, why it has no
// AdminServer: a port that refused a moment ago may be a member that was
// restarting. It is safe for concurrent use.
type WayMemory struct {
	mu      sync.Mutex
	refused map[string]map[string]bool
	noAdmin map[string]MissingAdmin
	via     map[string]map[string]Via // how each word last answered
}

// AdminRetry is how long a member found without an AdminServer is not
// asked for one again.
const AdminRetry = time.Minute

// MissingAdmin is why a member had no AdminServer, and when that was
// found.
type MissingAdmin struct {
	Err error
	At  time.Time
}

// NewWayMemory returns a WayMemory that remembers nothing yet.
func NewWayMemory() *WayMemory {
	return &WayMemory{refused: map[string]map[string]bool{}, noAdmin: map[string]MissingAdmin{}, via: map[string]map[string]Via{}}
}

// recall returns whether member refused word, and why it has no
// AdminServer (nil when it may have one).
func (m *WayMemory) recall(member, word string) (bool, error) {
	if m == nil {
		return false, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var noAdmin error
	if missing, ok := m.noAdmin[member]; ok && time.Since(missing.At) < AdminRetry {
		noAdmin = missing.Err
	}
	return m.refused[member][word], noAdmin
}

// learn remembers what an ask found: how it was answered (via, "" for
// not at all) and why each way did not answer.
func (m *WayMemory) learn(member, word string, via Via, wordErr, adminErr error) {
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
		if adminErr != m.noAdmin[member].Err {
			m.noAdmin[member] = MissingAdmin{Err: adminErr, At: time.Now()}
		}
	}
}

// Ask asks member for word by four-letter word, unless skipWord (refused
// before), and then, if the word is refused or skipped, by the AdminServer
// command that stands for it, unless the AdminServer is off or noAdmin
// (known to be missing). It returns the way that answered; wordErr is why
// the four-letter word did not answer (nil if it did or was not asked),
// also when the AdminServer then did; adminErr why the AdminServer did not
// (nil if it did or was not asked). A four-letter
// word that fails without being refused (a timeout, a member not serving)
// is not asked of the AdminServer: the member itself is in trouble.
func (w Ways) Ask(ctx context.Context, member, word string, r Reader, skipWord bool, noAdmin error) (via Via, wordErr, adminErr error) {
	if skipWord {
		wordErr = fmt.Errorf("%w: %s (%s, before)", ErrFourLetterRefused, word, member)
	} else {
		wordErr = fourLetterRead(ctx, member, word, w.TLS, w.Costs, r)
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
	case !w.Admin.Enabled():
		return "", wordErr, ErrAdminOff
	}
	if _, adminErr = adminAsk(ctx, w.Admin, member, word, w.Costs, r.JSON, r.Whole); adminErr == nil {
		return ViaAdmin, wordErr, nil // the refusal is still to be remembered
	}
	return "", wordErr, adminErr
}

// fourLetterRead asks member for word as a four-letter word and hands the
// answer to r.Text: as it arrives, or once it has arrived whole when
// r.Whole says so.
func fourLetterRead(ctx context.Context, member, word string, cfg *tls.Config, costs *Costs, r Reader) error {
	if !r.Whole {
		_, err := FourLetterStream(ctx, member, word, cfg, costs, r.Text)
		return err
	}
	var answer bytes.Buffer
	if _, err := FourLetterStream(ctx, member, word, cfg, costs, func(br *bufio.Reader) error {
		_, err := br.WriteTo(&answer)
		return err
	}); err != nil {
		return err
	}
	return r.Text(bufio.NewReader(&answer))
}

// NoWayError is a word no way answered: refused as a four-letter word, and
// not answered by the AdminServer either.
type NoWayError struct {
	// Word is the four-letter word's refusal, Admin why the AdminServer
	// did not answer.
	Word, Admin error
}

// Error says both causes.
func (e *NoWayError) Error() string { return fmt.Sprintf("%v; %v", e.Word, e.Admin) }

// Unwrap gives the refusal only when the AdminServer is missing (not when it
// merely failed this time), so that a caller that stops asking a refused
// word stops only when no way can answer it.
func (e *NoWayError) Unwrap() []error {
	if errors.Is(e.Admin, ErrAdminUnavailable) {
		return []error{e.Word, e.Admin}
	}
	return []error{e.Admin}
}

// askError is the error of an ask that got no answer.
func askError(wordErr, adminErr error) error {
	if adminErr == nil {
		return wordErr
	}
	return &NoWayError{Word: wordErr, Admin: adminErr}
}

// AskEither asks member for word whichever way answers, skipping what
// w.Memory remembers refused or missing, and returns an error built by
// askError.
func (w Ways) AskEither(ctx context.Context, member, word string, r Reader) (Via, error) {
	refused, noAdmin := w.Memory.recall(member, word)
	via, wordErr, adminErr := w.Ask(ctx, member, word, r, refused, noAdmin)
	w.Memory.learn(member, word, via, wordErr, adminErr)
	if via != "" {
		return via, nil
	}
	return "", askError(wordErr, adminErr)
}

// Answered returns how each word last answered each member, by member.
func (m *WayMemory) Answered() map[string]map[string]Via {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]map[string]Via, len(m.via))
	for member, words := range m.via {
		out[member] = maps.Clone(words)
	}
	return out
}

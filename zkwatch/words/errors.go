package words

import (
	"errors"
	"fmt"
)

// Why a member gave no answer, or no answer that is its own. The asks and
// the parsers wrap them, adding the member and the word; match with
// errors.Is.
var (
	// ErrFourLetterRefused is returned (wrapped) when the server answers
	// "<word> is not executed because it is not in the whitelist.", that is,
	// the word is missing from its 4lw.commands.whitelist.
	ErrFourLetterRefused = errors.New("words: four-letter word refused")

	// ErrNotServing is returned (wrapped) when the server answers "This
	// ZooKeeper instance is not currently serving requests": it is up but has
	// no quorum, typically while an election is under way.
	ErrNotServing = errors.New("words: server not serving requests")

	// ErrAdminUnavailable: nothing that answers as an AdminServer at the
	// member's admin port: the port is closed (admin.enableServer=false,
	// or Debian's package without servlet-api.jar on its class path),
	// another service answers there, or HTTP met an HTTPS-only port (or
	// the reverse). It is remembered like a refused word.
	ErrAdminUnavailable = errors.New("words: no AdminServer")

	// ErrAdminCommand: the AdminServer answered, but not with the command
	// asked (an unknown command on an older server, or an error field).
	ErrAdminCommand = errors.New("words: AdminServer command failed")

	// ErrAdminOff is why a member's AdminServer is not asked when asking it
	// is turned off; it wraps ErrAdminUnavailable.
	ErrAdminOff = fmt.Errorf("%w: asking it is turned off", ErrAdminUnavailable)

	// ErrTrackerRead is how ParseSessionExpiry stops reading a dump once
	// its session tracker is read: not a failure.
	ErrTrackerRead = errors.New("words: dump: session tracker read")
)

// Why an AdminServer's answer is not taken for a member's. The errors
// carrying them also wrap [ErrAdminUnavailable], so that an answer that is
// not the member's judges nothing, as no answer would.
var (
	// ErrAdminElsewhere: the AdminServer asked is another server's. Two
	// servers on one host, or a balancer that forwards the admin port to
	// any member, give one member's connections and watches for another's.
	ErrAdminElsewhere = errors.New("words: the AdminServer is another server's")
	// ErrAdminUntied: the AdminServer's configuration does not name the
	// client port it serves, so nothing ties its answers to the member.
	ErrAdminUntied = errors.New("words: the AdminServer cannot be tied to its member")
	// ErrAdminAuth: the AdminServer asks for credentials (HTTP 401 or
	// 403), which zklocks does not give.
	ErrAdminAuth = errors.New("words: the AdminServer requires authentication")
)

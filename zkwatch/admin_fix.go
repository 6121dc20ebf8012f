package zkwatch

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// WantedWords is the 4lw.commands.whitelist that lets zklocks ask every
// word it uses: srvr (status), cons (clients), wchc, wchp, wchs (watches),
// dump (discovery, expiry times), mntr and conf (members).
const WantedWords = "srvr,cons,wchc,wchp,wchs,dump,mntr,conf"

// WhitelistFix is the zoo.cfg line that allows every word zklocks asks.
const WhitelistFix = "4lw.commands.whitelist=" + WantedWords

// AdminFix says how to let zklocks use an AdminServer instead.
const AdminFix = "the AdminServer on (admin.enableServer=true; Debian's package also needs /usr/share/java/servlet-api.jar on its CLASSPATH) and --admin-port PORT"

// NoWayFix says, once, which members answer neither cons as a four-letter
// word nor through an AdminServer, and the two ways to fix it; "" when
// every member answered one way or the other (or could not be asked at
// all, which is another matter).
func NoWayFix(servers []ServerInfo) string {
	var stuck []string
	var why error
	for _, s := range servers {
		if s.Err != nil || !slices.Contains(s.Refused, "cons") || s.AdminErr == nil || s.Via["cons"] != "" {
			continue
		}
		stuck = append(stuck, s.Addr)
		if why == nil {
			why = s.AdminErr
		}
	}
	if len(stuck) == 0 {
		return ""
	}
	reason := strings.TrimPrefix(strings.TrimPrefix(why.Error(), "zkwatch: "), "no AdminServer at ")
	if errors.Is(why, errAdminOff) {
		reason = "--admin-port=off"
	}
	return fmt.Sprintf("%s: four-letter words refused and no AdminServer (%s): no clients, disconnected holders or real watches. Fix: %s in zoo.cfg, or %s (zklocks doctor says more)",
		strings.Join(stuck, ", "), reason, WhitelistFix, AdminFixFor(why))
}

// AdminFixFor says how to get a member's own AdminServer to answer, given
// why it did not (an error wrapping ErrAdminUnavailable).
func AdminFixFor(why error) string {
	switch {
	case errors.Is(why, ErrAdminElsewhere), errors.Is(why, ErrAdminUntied):
		return "give each member's own AdminServer port (--admin-port HOST:PORT=ADMINPORT for members sharing a host; never a port a balancer forwards to any member)"
	case errors.Is(why, ErrAdminAuth):
		return "let the AdminServer answer zklocks' read-only commands without authentication (zklocks sends no credentials)"
	}
	return "turn " + AdminFix
}

// WaysNote says how a member answered, for notes: "by AdminServer (words
// refused): cons, wchc; by four-letter word: srvr; refused, no answer:
// dump; no AdminServer: …".
func WaysNote(s ServerInfo) string {
	var admin, word, unanswered []string
	for w, via := range s.Via {
		switch via {
		case ViaAdmin:
			admin = append(admin, w)
		case ViaWord:
			word = append(word, w)
		}
	}
	for _, w := range s.Refused {
		if s.Via[w] == "" {
			unanswered = append(unanswered, w)
		}
	}
	slices.Sort(admin)
	slices.Sort(word)
	var parts []string
	if len(admin) > 0 {
		parts = append(parts, "by AdminServer (words refused): "+strings.Join(admin, ", "))
	}
	if len(word) > 0 {
		parts = append(parts, "by four-letter word: "+strings.Join(word, ", "))
	}
	if len(unanswered) > 0 {
		parts = append(parts, "refused, no answer: "+strings.Join(unanswered, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	if s.AdminErr != nil && !errors.Is(s.AdminErr, errAdminOff) {
		parts = append(parts, strings.TrimPrefix(s.AdminErr.Error(), "zkwatch: "))
	}
	return strings.Join(parts, "; ")
}

package words

import "errors"

// wantedWords is the 4lw.commands.whitelist that lets zklocks ask every
// word it uses: srvr (status), cons (clients), wchc, wchp, wchs (watches),
// dump (discovery, expiry times), mntr and conf (members).
const wantedWords = "srvr,cons,wchc,wchp,wchs,dump,mntr,conf"

// WhitelistFix is the zoo.cfg line that allows every word zklocks asks.
const WhitelistFix = "4lw.commands.whitelist=" + wantedWords

// adminFix says how to let zklocks use an AdminServer instead.
const adminFix = "the AdminServer on (admin.enableServer=true; Debian's package also needs /usr/share/java/servlet-api.jar on its CLASSPATH) and --admin-port PORT"

// AdminFixFor says how to get a member's own AdminServer to answer, given
// why it did not (an error wrapping ErrAdminUnavailable).
func AdminFixFor(why error) string {
	switch {
	case errors.Is(why, ErrAdminElsewhere), errors.Is(why, ErrAdminUntied):
		return "give each member's own AdminServer port (--admin-port HOST:PORT=ADMINPORT for members sharing a host; never a port a balancer forwards to any member)"
	case errors.Is(why, ErrAdminAuth):
		return "let the AdminServer answer zklocks' read-only commands without authentication (zklocks sends no credentials)"
	}
	return "turn " + adminFix
}

package zkwatch

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/zklocks/zklocks/zkwatch/words"
)

// NoWayFix says, once, which members answer neither cons as a four-letter
// word nor through an AdminServer, and the two ways to fix it; "" when
// every member answered one way or the other (or could not be asked at
// all, which is another matter).
func NoWayFix(servers []ServerInfo) string {
	var stuck []string
	var why error
	for _, s := range servers {
		if !NoWay(s) {
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
	reason := strings.TrimPrefix(strings.TrimPrefix(why.Error(), "words: "), "no AdminServer at ")
	if errors.Is(why, words.ErrAdminOff) {
		reason = "--admin-port=off"
	}
	return fmt.Sprintf("%s: four-letter words refused and no AdminServer (%s): no clients, disconnected holders or real watches. Fix: %s in zoo.cfg, or %s (zklocks doctor says more)",
		strings.Join(stuck, ", "), reason, words.WhitelistFix, words.AdminFixFor(why))
}

// NoWay reports whether member s answers cons neither as a four-letter
// word nor through an AdminServer: one of those NoWayFix names.
func NoWay(s ServerInfo) bool {
	return s.Err == nil && slices.Contains(s.Refused, "cons") && s.AdminErr != nil && s.Via["cons"] == ""
}

// WaysNote says how a member answered, for notes: "by AdminServer (words
// refused): cons, wchc; by four-letter word: srvr; refused, no answer:
// dump; no AdminServer: …".
func WaysNote(s ServerInfo) string {
	var admin, word, unanswered []string
	for w, via := range s.Via {
		switch via {
		case words.ViaAdmin:
			admin = append(admin, w)
		case words.ViaWord:
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
	if s.AdminErr != nil && !errors.Is(s.AdminErr, words.ErrAdminOff) {
		parts = append(parts, strings.TrimPrefix(s.AdminErr.Error(), "words: "))
	}
	return strings.Join(parts, "; ")
}

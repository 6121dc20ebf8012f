package sasl

import (
	"fmt"
	"strings"
)

// maxDirectives bounds a challenge: RFC 2831 has about ten directives, so
// more is garbage.
const maxDirectives = 64

// directives are a digest challenge's name=value pairs; a name given twice
// (realm may be) keeps its first value.
type directives map[string]string

func (d directives) get(name string) string { return d[name] }

// parseDirectives reads RFC 2831's comma-separated name=value list, a
// value a token or a quoted-string with backslash escapes. Its errors
// never quote the token.
func parseDirectives(s string) (directives, error) {
	d := directives{}
	i := 0
	skip := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == ',' || s[i] == '\r' || s[i] == '\n') {
			i++
		}
	}
	for skip(); i < len(s); skip() {
		if len(d) >= maxDirectives {
			return nil, fmt.Errorf("%w: more than %d directives", ErrBadChallenge, maxDirectives)
		}
		eq := strings.IndexByte(s[i:], '=')
		if eq <= 0 {
			return nil, fmt.Errorf("%w: a directive without a value at byte %d", ErrBadChallenge, i)
		}
		name := strings.ToLower(strings.TrimSpace(s[i : i+eq]))
		i += eq + 1
		var val string
		if i < len(s) && s[i] == '"' {
			var b strings.Builder
			i++
			closed := false
			for i < len(s) {
				c := s[i]
				i++
				if c == '\\' && i < len(s) {
					b.WriteByte(s[i])
					i++
					continue
				}
				if c == '"' {
					closed = true
					break
				}
				b.WriteByte(c)
			}
			if !closed {
				return nil, fmt.Errorf("%w: an unterminated quoted value of %s", ErrBadChallenge, printable(name))
			}
			val = b.String()
		} else {
			end := strings.IndexByte(s[i:], ',')
			if end < 0 {
				end = len(s) - i
			}
			val = strings.TrimSpace(s[i : i+end])
			i += end
		}
		if _, seen := d[name]; !seen {
			d[name] = val
		}
	}
	return d, nil
}

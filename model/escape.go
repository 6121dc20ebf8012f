package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Printable returns s with everything a terminal could interpret escaped:
// C0 and C1 control characters, DEL, Unicode bidirectional controls and
// invalid UTF-8 bytes, written Go-style (\x1b, \u202e). Other text, Unicode
// included, is kept. Node names and data pass through it before any display.
func Printable(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\\':
			b.WriteString(`\\`)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, `\x%02x`, r)
		case isBidiControl(r) || r == '\u2028' || r == '\u2029' || r == '\ufeff':
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isPlain reports whether s is printable ASCII without backslashes, the
// common case, which needs no copy.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '\\' {
			return false
		}
	}
	return true
}

// isBidiControl reports the Unicode characters that reorder text: a name
// holding them can display as a different name.
func isBidiControl(r rune) bool {
	return r == '\u061c' || r == '\u200e' || r == '\u200f' ||
		(r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069')
}

// DataText returns node data for display: escaped text when it is UTF-8,
// else false so the caller can show it as binary.
func DataText(data []byte, truncated bool) (string, bool) {
	if truncated {
		data = trimPartialRune(data)
	}
	if !utf8.Valid(data) {
		return "", false
	}
	return string(data), true
}

// trimPartialRune drops an incomplete UTF-8 sequence that a cut at a byte
// limit left at the end.
func trimPartialRune(b []byte) []byte {
	for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
		if utf8.RuneStart(b[len(b)-i]) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			break
		}
	}
	return b
}

// WriteJSON writes v to w as the commands print JSON for scripts:
// indented by two spaces, ending in a newline, with the bidirectional
// controls escaped (EscapeJSONBidi).
func WriteJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(EscapeJSONBidi(append(b, '\n')))
	return err
}

// EscapeJSONBidi escapes the bidirectional controls and byte-order marks
// that encoding/json leaves raw in JSON text (b), so that JSON printed to a
// terminal cannot reorder what is shown; the JSON's meaning is unchanged.
func EscapeJSONBidi(b []byte) []byte { return escapeJSONBidi(b) }

// escapeJSONBidi rewrites the bidirectional controls that encoding/json
// leaves raw as \uXXXX escapes; JSON strings read back unchanged.
func escapeJSONBidi(b []byte) []byte {
	if !bytes.ContainsAny(b, "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff") {
		return b
	}
	var out bytes.Buffer
	for _, r := range string(b) {
		if isBidiControl(r) || r == '\ufeff' {
			out.WriteString(`\u`)
			out.WriteString(hex4(r))
			continue
		}
		out.WriteRune(r)
	}
	return out.Bytes()
}

func hex4(r rune) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[r>>12&0xf], digits[r>>8&0xf], digits[r>>4&0xf], digits[r&0xf]})
}

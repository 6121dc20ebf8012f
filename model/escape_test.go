package model

import "testing"

func TestPrintable(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "_c_f2f6-lock-0000000001", "_c_f2f6-lock-0000000001"},
		{"escape sequence", "\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"osc title", "\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},
		{"newline and tab", "a\nb\tc", `a\x0ab\x09c`},
		{"c1 control", "a\u009bb", `a\x9bb`},
		{"bidi override", "abc\u202edcba", `abc\u202edcba`},
		{"isolate", "\u2066x\u2069", `\u2066x\u2069`},
		{"invalid utf-8", "ok\xff\xfe", `ok\xff\xfe`},
		{"unicode kept", "hôte-日本-🔒", "hôte-日本-🔒"},
		{"backslash doubled", `a\x1b`, `a\\x1b`},
		{"del", "a\x7f", `a\x7f`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Printable(tt.in); got != tt.want {
				t.Fatalf("Printable(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestDataText(t *testing.T) {
	if s, ok := DataText([]byte("10.0.0.1"), false); !ok || s != "10.0.0.1" {
		t.Fatalf("text data: %q %v", s, ok)
	}
	if _, ok := DataText([]byte{0xff, 0x00, 0x01}, false); ok {
		t.Fatal("binary data reported as text")
	}
	cut := []byte("ab\xe6\x97") // "日" cut after two of its three bytes
	if s, ok := DataText(cut, true); !ok || s != "ab" {
		t.Fatalf("truncated rune: %q %v", s, ok)
	}
	if _, ok := DataText(cut, false); ok {
		t.Fatal("an incomplete rune in complete data is binary")
	}
}

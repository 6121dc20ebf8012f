package ui

import (
	"strings"
	"testing"
)

func TestCopyTheSelection(t *testing.T) {
	var got []string
	a := newTestApp(t, 80, 24, func(o *Options) { o.Copy = func(s string) { got = append(got, s) } })
	press(a, "y")
	send(a, openLockMsg{path: "/locks/orders", node: participant(t, a, "/locks/orders", 2).Path})
	press(a, "y", "Y", "C")
	q := participant(t, a, "/locks/orders", 2)
	want := []string{"/locks/orders", q.Path, "0x100008e2d9b0004", "10.0.0.4:50004"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("copied %q, want %q", got, want)
	}
	if !strings.Contains(screen(a), "asked the terminal to copy the client address 10.0.0.4:50004 (OSC 52)") {
		t.Fatalf("no word of the copy:\n%s", screen(a))
	}
	// A hostile name is not put on the clipboard, where a paste would act.
	got = nil
	send(a, openLockMsg{path: "/locks/\u202eevil"})
	press(a, "y")
	if len(got) != 0 || !strings.Contains(screen(a), "not copied") {
		t.Fatalf("copied %q:\n%s", got, screen(a))
	}
	// Nothing to copy says so.
	send(a, openLockMsg{path: "/locks/idle"})
	press(a, "Y")
	if len(got) != 0 || !strings.Contains(screen(a), "nothing to copy") {
		t.Fatalf("copied %q:\n%s", got, screen(a))
	}
}

// TestCopyUnderTmuxWithoutSetClipboard: inside a tmux that would drop
// the copy, the status line says so and how to fix it.
func TestCopyUnderTmuxWithoutSetClipboard(t *testing.T) {
	if CopyBlockedUnderTmux("on\n") != "" {
		t.Fatal("set-clipboard on lets copies through, yet it is said to drop them")
	}
	var got []string
	a := newTestApp(t, 120, 24, func(o *Options) {
		o.Copy = func(s string) { got = append(got, s) }
		o.CopyBlocked = CopyBlockedUnderTmux("external\n")
	})
	press(a, "y")
	if len(got) != 1 || !strings.Contains(a.flash.text, "tmux drops it (set-clipboard is external): run tmux set -g set-clipboard on") ||
		!a.flash.isErr {
		t.Fatalf("copied %q; said %q", got, a.flash.text)
	}
}

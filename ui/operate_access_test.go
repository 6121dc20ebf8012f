package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/zklocks/zklocks/lockcore"
)

var errNotPermitted = errors.New("cannot delete it: the ACL of /locks/billing grants DELETE to sasl:kafka only; this session is sasl:reader")

// TestForceReleaseSaysWhoMay opens the force-release dialog on a session
// the ACL refuses: the dialog says so and offers nothing, y deletes
// nothing; on a session it allows, the dialog says who may, and y deletes.
func TestForceReleaseSaysWhoMay(t *testing.T) {
	for _, tc := range []struct {
		name    string
		summary string
		refusal error
	}{
		{"refused", "", errNotPermitted},
		{"allowed", "this session (sasl:ops, as whoAmI says) has DELETE on /locks/billing: granted to sasl:ops", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, z, audit := newOperateApp(t)
			var asked []string
			a.op.actions.Access = func(_ context.Context, kind lockcore.ActionKind, node string) (string, error) {
				asked = append(asked, string(kind)+" "+node)
				return tc.summary, tc.refusal
			}
			holder := participant(t, a, "/locks/billing", 0)
			send(a, openLockMsg{path: "/locks/billing"})
			press(a, "D")
			sc := screen(a)
			if len(asked) != 1 || asked[0] != "force-release "+holder.Path {
				t.Fatalf("asked %v", asked)
			}
			if tc.refusal != nil {
				if !strings.Contains(sc, "Not permitted") || !strings.Contains(sc, "grants DELETE to sasl:kafka") || strings.Contains(sc, "y deletes") {
					t.Fatalf("the refused dialog:\n%s", sc)
				}
				press(a, "y")
				if w := z.writes(); len(w) != 0 || audit.Len() != 0 {
					t.Fatalf("refused, yet: %v %s", w, audit)
				}
				if l := statusLine(a); !strings.Contains(l, "nothing was done") {
					t.Fatalf("status: %q", l)
				}
				return
			}
			if !strings.Contains(strings.Join(strings.Fields(sc), " "), "granted to sasl:ops") {
				t.Fatalf("the dialog does not say who may:\n%s", sc)
			}
			press(a, "y")
			if w := z.writes(); len(w) != 1 || w[0] != fmt.Sprintf("delete %s 0", holder.Path) {
				t.Fatalf("writes %v", w)
			}
		})
	}
}

// TestFenceSaysWhoMay: the fence dialog reads the lock's ACL too, and
// offers nothing when it refuses.
func TestFenceSaysWhoMay(t *testing.T) {
	a, z, _ := newOperateApp(t)
	a.op.actions.Access = func(_ context.Context, kind lockcore.ActionKind, node string) (string, error) {
		return "", errNotPermitted
	}
	send(a, openLockMsg{path: "/locks/orphans"})
	press(a, "F")
	if sc := screen(a); !strings.Contains(sc, "Not permitted") {
		t.Fatalf("the refused fence dialog:\n%s", sc)
	}
	press(a, "y")
	if w := z.writes(); len(w) != 0 {
		t.Fatalf("refused, yet: %v", w)
	}
	b, _, _ := newOperateApp(t)
	b.op.actions.Access = func(context.Context, lockcore.ActionKind, string) (string, error) {
		return "this session (sasl:ops) has DELETE on /locks/orphans: granted to sasl:ops", nil
	}
	send(b, openLockMsg{path: "/locks/orphans"})
	press(b, "F")
	if sc := screen(b); !strings.Contains(sc, "this session (sasl:ops) has DELETE on /locks/orphans: granted to") {
		t.Fatalf("the fence dialog does not say who may:\n%s", screen(b))
	}
}

// TestAcquireSaysWhoMay: the acquire dialog reads CREATE on the lock's
// node; refused, it says so and offers nothing, so that no mode key joins
// the lock; allowed, it says who may and a mode key joins.
func TestAcquireSaysWhoMay(t *testing.T) {
	for _, tc := range []struct {
		name    string
		summary string
		refusal error
	}{
		{"refused", "", errors.New("cannot create under it: the ACL of /locks/billing grants CREATE to sasl:kafka only; this session is sasl:reader")},
		{"allowed", "this session (sasl:ops, as whoAmI says) has CREATE on /locks/billing: granted to sasl:ops", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _, _ := newOperateApp(t)
			var asked []string
			a.op.actions.Access = func(_ context.Context, kind lockcore.ActionKind, node string) (string, error) {
				asked = append(asked, string(kind)+" "+node)
				return tc.summary, tc.refusal
			}
			send(a, openLockMsg{path: "/locks/billing"})
			press(a, "a")
			sc := strings.Join(strings.Fields(screen(a)), " ")
			if len(asked) != 1 || asked[0] != "acquire /locks/billing" {
				t.Fatalf("asked %v", asked)
			}
			_, cmd := a.Update(keyMsg("e"))
			var msg tea.Msg
			if cmd != nil {
				msg = cmd()
			}
			chosen, joined := msg.(acquireChosenMsg)
			if tc.refusal != nil {
				if !strings.Contains(sc, "Not permitted") || !strings.Contains(sc, "grants CREATE to") || !strings.Contains(sc, "sasl:kafka only") || strings.Contains(sc, "e exclusive") {
					t.Fatalf("the refused dialog:\n%s", sc)
				}
				if joined || openDialog(a) != nil {
					t.Fatalf("refused, yet e chose %+v", chosen.spec)
				}
				if f, ok := msg.(flashMsg); !ok || !strings.Contains(f.text, "nothing was done") {
					t.Fatalf("closing the refused dialog said %#v", msg)
				}
				return
			}
			if !strings.Contains(sc, "granted to sasl:ops") || !strings.Contains(sc, "e exclusive") {
				t.Fatalf("the dialog does not say who may:\n%s", sc)
			}
			if !joined || chosen.spec.Path != "/locks/billing" || chosen.spec.Mode != lockcore.ModeExclusive {
				t.Fatalf("allowed, e chose %#v", msg)
			}
		})
	}
}

package report

import (
	"github.com/zklocks/zklocks/model"

	"fmt"
	"io"

	"github.com/zklocks/zklocks/lockcore"
)

// appJSON is what an application says about its lock: a contract with
// scripts, like the rest of the report.
type appJSON struct {
	Name          string          `json:"name"`
	What          string          `json:"what"`
	Holder        string          `json:"holder,omitempty"`
	HolderSession *string         `json:"holder_session"`
	Token         *appTokenJSON   `json:"token,omitempty"`
	Members       []appMemberJSON `json:"members"`
	Notes         []string        `json:"notes,omitempty"`
}

type appTokenJSON struct {
	Name    string `json:"name"`
	Path    string `json:"path"`
	Value   string `json:"value"`
	Version *int32 `json:"zk_version,omitempty"`
}

type appMemberJSON struct {
	Session  *string `json:"session"`
	Identity string  `json:"identity,omitempty"`
	Path     string  `json:"path,omitempty"`
	Role     string  `json:"role,omitempty"`
	Evidence string  `json:"evidence"`
}

func appToJSON(a *lockcore.App) *appJSON {
	if a == nil {
		return nil
	}
	j := &appJSON{Name: a.Name, What: a.What, Holder: a.Holder, HolderSession: session(a.HolderSession),
		Members: make([]appMemberJSON, 0, len(a.Members)), Notes: a.Notes}
	if t := a.Token; t != nil {
		j.Token = &appTokenJSON{Name: t.Name, Path: t.Path, Value: t.Value}
		if t.Version >= 0 {
			v := t.Version
			j.Token.Version = &v
		}
	}
	for _, m := range a.Members {
		j.Members = append(j.Members, appMemberJSON{Session: session(m.Session), Identity: m.Identity, Path: m.Path,
			Role: string(m.Role), Evidence: m.Evidence})
	}
	return j
}

// writeAppText writes what the application says about the lock, escaped.
func writeAppText(w io.Writer, a *lockcore.App) {
	if a == nil {
		return
	}
	fmt.Fprintf(w, "%s %s", a.Name, model.Printable(a.What))
	if a.Holder != "" {
		fmt.Fprintf(w, ": held by %s", model.Printable(a.Holder))
	}
	fmt.Fprintln(w)
	if t := a.Token; t != nil {
		fmt.Fprintf(w, "fencing token: %s\n", model.Printable(model.TokenText(t)))
	}
	for _, m := range a.Members {
		fmt.Fprintf(w, "%s\n", model.Printable(model.MemberText(m)))
	}
	for _, n := range a.Notes {
		fmt.Fprintf(w, "note: %s\n", model.Printable(n))
	}
}

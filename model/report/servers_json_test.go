package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// TestJSONServersAlikeInShowAndList: show's JSON and ls's say how each
// member answered, and the fix, in the same fields with the same values.
func TestJSONServersAlikeInShowAndList(t *testing.T) {
	servers := []zkwatch.ServerInfo{{Addr: "127.0.0.1:2181", Refused: []string{"cons"}, AdminErr: errors.New("no AdminServer"),
		Via: map[string]words.Via{"srvr": words.ViaWord}}}
	const fix = "add cons to 4lw.commands.whitelist"
	var show, list bytes.Buffer
	r := Report{Server: "127.0.0.1:2181", WatchesSource: lockcore.WatchesFromRecipe, Servers: servers, Fix: fix}
	if err := r.WriteJSON(&show); err != nil {
		t.Fatal(err)
	}
	s := model.NewState()
	s.Servers, s.Fix = servers, fix
	if err := WriteListJSON(&list, s); err != nil {
		t.Fatal(err)
	}
	type out struct {
		Servers []map[string]any `json:"servers"`
		Fix     string           `json:"fix"`
	}
	var a, b out
	if err := json.Unmarshal(show.Bytes(), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(list.Bytes(), &b); err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{{"member": "127.0.0.1:2181", "answered": map[string]any{"srvr": "4lw"},
		"refused": []any{"cons"}, "admin_error": "no AdminServer"}}
	if a.Fix != fix || !reflect.DeepEqual(a.Servers, want) {
		t.Errorf("show's JSON: servers %v, fix %q; want %v, %q", a.Servers, a.Fix, want, fix)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("ls's JSON says %+v, show's %+v", b, a)
	}
}

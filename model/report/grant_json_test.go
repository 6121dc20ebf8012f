package report

import (
	"bytes"
	"testing"

	"github.com/zklocks/zklocks/lockcore"

	"github.com/zklocks/zklocks/lockclient"
)

func TestWriteGrantJSON(t *testing.T) {
	h := &lockclient.Held{Node: "/locks/a/_c_x-lock-0000000001", Token: 4294967310, Session: 0x100008e2d9b0004,
		Recipe: lockcore.RecipeCuratorMutex, Mode: lockcore.ModeExclusive}
	var b bytes.Buffer
	if err := WriteGrantJSON(&b, h); err != nil {
		t.Fatal(err)
	}
	want := `{"mode":"exclusive","node":"/locks/a/_c_x-lock-0000000001","recipe":"curator-mutex","session":"0x100008e2d9b0004","token":4294967310}` + "\n"
	if b.String() != want {
		t.Errorf("got  %s\nwant %s", b.String(), want)
	}
}

package txnlog

import (
	"reflect"
	"strings"
	"testing"

	"github.com/zklocks/zklocks/zkwatch"
)

// A read that sends its events as it reads them sends those a read that
// keeps them holds, in the same order, and keeps none; one kept to the
// locks under a path sends theirs alike.
func TestLoadEmitSendsWhatItWouldKeep(t *testing.T) {
	dir := fixture(t)
	kept, err := loadUntouched(t, []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var sent []zkwatch.Event
	res, err := loadUntouched(t, []string{dir}, Options{Emit: func(ev zkwatch.Event) { sent = append(sent, ev) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Recording.Events) != 0 || res.Sent != len(sent) || kept.Sent != len(kept.Recording.Events) {
		t.Errorf("kept %d, sent %d (Sent %d)", len(res.Recording.Events), len(sent), res.Sent)
	}
	if len(sent) < 20 || !reflect.DeepEqual(sent, kept.Recording.Events) {
		t.Errorf("sent %d events, kept %d: they differ", len(sent), len(kept.Recording.Events))
	}
	if !res.Recording.Headers[0].Started.Equal(kept.Recording.Headers[0].Started) {
		t.Errorf("started %v, kept %v", res.Recording.Headers[0].Started, kept.Recording.Headers[0].Started)
	}
	under, err := loadUntouched(t, []string{dir}, Options{Under: "/locks/rw"})
	if err != nil {
		t.Fatal(err)
	}
	var want, got []zkwatch.Event
	for _, ev := range kept.Recording.Events {
		if strings.HasPrefix(ev.Path, "/locks/rw") {
			want = append(want, ev)
		}
	}
	for _, ev := range under.Recording.Events {
		if strings.HasPrefix(ev.Path, "/locks/rw") {
			got = append(got, ev)
		}
	}
	if len(want) == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("under /locks/rw: %d events, %d of the whole read's: they differ", len(got), len(want))
	}
}

package report

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/zklocks/zklocks/model"
)

// fillRandom sets every field of the value v points to, at any depth,
// to a value drawn from r: a field added to Story (or its parts) is
// filled too, so a writer that leaves it out fails the comparison.
func fillRandom(r *rand.Rand, v reflect.Value) {
	if v.Type() == reflect.TypeFor[time.Time]() {
		v.Set(reflect.ValueOf(randomTime(r)))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(randomString(r))
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int64:
		switch r.IntN(3) {
		case 0:
		case 1:
			v.SetInt(r.Int64N(1e12))
		default:
			v.SetInt(-r.Int64N(1e6))
		}
	case reflect.Slice:
		switch n := r.IntN(5); n {
		case 0: // nil
		default:
			s := reflect.MakeSlice(v.Type(), n-1, n-1)
			for i := range n - 1 {
				fillRandom(r, s.Index(i))
			}
			v.Set(s)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			fillRandom(r, v.Field(i))
		}
	default:
		panic("fillRandom: a field of kind " + v.Kind().String())
	}
}

var jsonTestStrings = []string{"", "0x1000a2b3c4d5e6f7", "/locks/a", "_c_0a1b-lock-0000000012", "<b>&amp;</b>", "a\"b\\c",
	"tab\there\nnewline", "é ünïcode ✓", "\u2028\u2029", "\xff\xfebad utf-8", "\x00\x1b[31mred", "released-or-forced"}

func randomString(r *rand.Rand) string { return jsonTestStrings[r.IntN(len(jsonTestStrings))] }

func randomTime(r *rand.Rand) time.Time {
	base := time.Date(2026, 11, 29, 6, 55, 0, 0, time.UTC).Add(time.Duration(r.Int64N(1e15)))
	switch r.IntN(6) {
	case 0:
		return time.Time{}
	case 1:
		return base.Local()
	case 2:
		return base.In(time.FixedZone("X", -(9*3600 + 30*60)))
	case 3:
		return base.Truncate(time.Second)
	case 4:
		return time.Now() // a monotonic reading, not written
	}
	return base
}

func TestStoryJSONIsEncodingJSONs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		var st model.Story
		fillRandom(r, reflect.ValueOf(&st).Elem())
		want, err := json.MarshalIndent(st, storyPrefix, storyIndent)
		if err != nil {
			t.Fatal(err)
		}
		got, err := marshalStory([]byte("kept"), st)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, append([]byte("kept"), want...)) {
			t.Fatalf("story %d:\n got %s\nwant kept%s", i, got, want)
		}
	}
}

func TestStoryJSONRefusesAsEncodingJSON(t *testing.T) {
	for _, bad := range []time.Time{time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("far", 25*3600))} {
		st := model.Story{Lock: "/l", Holds: []model.StoryHold{{Granted: bad}}}
		_, want := json.MarshalIndent(st, storyPrefix, storyIndent)
		if want == nil {
			t.Fatalf("encoding/json wrote %v", bad)
		}
		if _, got := marshalStory(nil, st); got == nil || got.Error() != want.Error() {
			t.Errorf("%v: error %v, want %v", bad, got, want)
		}
	}
}

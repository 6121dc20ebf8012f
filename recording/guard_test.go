package recording

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// derivedFields are the contender's fields (lockcore.Participant's, by
// path) a recording need not keep, each with why: a replay gets them
// again from what it does keep. Every other field must come back from a
// recording as it went in (TestEveryContenderFieldIsRecorded).
var derivedFields = map[string]string{}

// TestEveryContenderFieldIsRecorded: each field of a contender, changed
// alone from what the reader would derive, comes back from a recording
// as it went in (for a contender new to the lock and for one the line
// before already had), unless derivedFields says why it need not. A field
// added to lockcore.Participant, or to a struct inside it, that the
// encoder does not write fails here rather than vanish from replays.
func TestEveryContenderFieldIsRecorded(t *testing.T) {
	for name := range derivedFields {
		if !slices.ContainsFunc(fieldPaths(reflect.TypeFor[lockcore.Participant](), ""), func(f fieldPath) bool {
			return f.name == name || strings.HasPrefix(f.name, name+".")
		}) {
			t.Errorf("derivedFields names %s, which a contender does not have", name)
		}
	}
	for _, f := range fieldPaths(reflect.TypeFor[lockcore.Participant](), "") {
		if isDerived(derivedFields, f.name) {
			continue
		}
		for _, already := range []bool{false, true} {
			got, want := roundTripChanged(t, f, already)
			if !sameValue(got, want) {
				t.Errorf("%s (contender already on the line before: %v) is neither recorded nor in derivedFields: wrote %v, read back %v",
					f.name, already, want, got)
			}
		}
	}
}

// isDerived reports whether the field, or a struct it is part of, is in
// derived.
func isDerived(derived map[string]string, name string) bool {
	for d := range derived {
		if name == d || strings.HasPrefix(name, d+".") {
			return true
		}
	}
	return false
}

// guardLock is a Curator mutex of n contenders read at at.
func guardLock(at time.Time, n int) *lockcore.Lock {
	tr := lockcore.Tree{Path: "/locks/guard", ReadAt: at}
	for i := range n {
		tr.Children = append(tr.Children, lockcore.Node{Name: fmt.Sprintf("_c_0f0e0d0c-0b0a-4908-a706-05040302010%d-lock-%010d", i, i),
			Stat: zk.Stat{Czxid: int64(0x100000001 + i), EphemeralOwner: 0x100008e2d9b0000 + int64(i), Version: 1,
				Ctime: at.Add(-time.Duration(10-i) * time.Second).UnixMilli()}, Data: []byte("10.0.0.1")})
	}
	l := lockcore.Analyze(tr, nil, lockcore.Options{LongHeld: 5 * time.Minute})
	return &l
}

// fieldPath is a leaf field inside a struct: a field that is not itself a
// struct (other than time.Time), reached through structs and pointers to
// structs.
type fieldPath struct {
	name  string
	index []int
}

var timeType = reflect.TypeFor[time.Time]()

func fieldPaths(t reflect.Type, prefix string) []fieldPath {
	var out []fieldPath
	for i := range t.NumField() {
		f := t.Field(i)
		name := prefix + f.Name
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct && ft != timeType {
			for _, sub := range fieldPaths(ft, name+".") {
				out = append(out, fieldPath{name: sub.name, index: append([]int{i}, sub.index...)})
			}
			continue
		}
		out = append(out, fieldPath{name: name, index: []int{i}})
	}
	return out
}

// roundTripChanged records a lock whose waiter has field f changed from
// what it was, after a line without that waiter (already false) or with
// it unchanged (already true), and returns the field as read back and as
// written.
func roundTripChanged(t *testing.T, f fieldPath, already bool) (got, want any) {
	t.Helper()
	at := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	first := guardLock(at, 1)
	if already {
		first = guardLock(at, 2)
	}
	changed := guardLock(at, 2)
	want = setDifferent(t, reflect.ValueOf(&changed.Participants[1]).Elem(), f.index)

	e, d := newEncoder(at), newDecoder(at, Version)
	var last zkwatch.Event
	for _, l := range []*lockcore.Lock{first, changed} {
		b, err := e.encode(zkwatch.Event{Kind: zkwatch.EventLock, At: at, Path: l.Path, Lock: l}, false)
		if err != nil {
			t.Fatal(err)
		}
		if last, _, err = d.decode(b); err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
	}
	if len(last.Lock.Participants) != 2 {
		t.Fatalf("%s: read back %d contenders", f.name, len(last.Lock.Participants))
	}
	v, ok := fieldAt(reflect.ValueOf(last.Lock.Participants[1]), f.index)
	if !ok {
		return nil, want
	}
	return v.Interface(), want
}

// setDifferent sets the field at index inside v (allocating the structs
// pointed to on the way) to a value unlike the one it has, and returns it.
func setDifferent(t *testing.T, v reflect.Value, index []int) any {
	for _, i := range index[:len(index)-1] {
		v = v.Field(i)
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
	}
	field := v.Field(index[len(index)-1])
	field.Set(different(t, field))
	return field.Interface()
}

// fieldAt is the field at index inside v; false when a pointer on the way
// is nil.
func fieldAt(v reflect.Value, index []int) (reflect.Value, bool) {
	for _, i := range index {
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(i)
	}
	return v, true
}

// different is a value of v's type unlike v's, of a kind the encoder can
// hold: the next role, mode, recipe or hold kind for those, a time a
// second and a millisecond on, a duration of whole microseconds, a
// struct with every field different.
func different(t *testing.T, v reflect.Value) reflect.Value {
	t.Helper()
	next := func(vals ...any) reflect.Value {
		for i, x := range vals {
			if reflect.ValueOf(x).Interface() == v.Interface() {
				return reflect.ValueOf(vals[(i+1)%len(vals)])
			}
		}
		return reflect.ValueOf(vals[0])
	}
	switch v.Interface().(type) {
	case lockcore.Role:
		return next(lockcore.RoleHolder, lockcore.RoleWaiter)
	case lockcore.Mode:
		return next(lockcore.ModeExclusive, lockcore.ModeRead, lockcore.ModeWrite)
	case lockcore.Recipe:
		return next(lockcore.RecipeCuratorMutex, lockcore.RecipeSequential)
	case lockcore.HoldHow:
		return next(lockcore.HoldSeen, lockcore.HoldBounded, lockcore.HoldCreated)
	case time.Time:
		tm := v.Interface().(time.Time)
		if tm.IsZero() {
			tm = time.Date(2026, 11, 22, 2, 59, 0, 0, time.UTC)
		}
		return reflect.ValueOf(tm.Add(time.Second + time.Millisecond))
	case time.Duration:
		return reflect.ValueOf(v.Interface().(time.Duration) + 1234*time.Microsecond)
	}
	out := reflect.New(v.Type()).Elem()
	switch v.Kind() {
	case reflect.Pointer:
		elem := reflect.New(v.Type().Elem()).Elem()
		if !v.IsNil() {
			elem = v.Elem()
		}
		out.Set(reflect.New(v.Type().Elem()))
		out.Elem().Set(different(t, elem))
	case reflect.Struct:
		for i := range v.NumField() {
			out.Field(i).Set(different(t, v.Field(i)))
		}
	case reflect.String:
		out.SetString(v.String() + "guard")
	case reflect.Bool:
		out.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		out.SetInt(v.Int() + 7)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		out.SetUint(v.Uint() + 7)
	case reflect.Slice:
		out = reflect.AppendSlice(reflect.MakeSlice(v.Type(), 0, v.Len()+1), v)
		out = reflect.Append(out, different(t, reflect.New(v.Type().Elem()).Elem()))
	default:
		t.Fatalf("no different value for a %s: teach the guard its kind", v.Type())
	}
	return out
}

// sameValue compares a field as written and as read back, times as
// instants.
func sameValue(got, want any) bool {
	if a, ok := got.(time.Time); ok {
		b, _ := want.(time.Time)
		return a.Equal(b)
	}
	return reflect.DeepEqual(got, want)
}

// derivedLockFields are a lock's own fields (lockcore.Lock's, by path) a
// recording need not keep as they are, each with why; every other field
// must come back as it went in (TestEveryLockFieldIsRecorded).
var derivedLockFields = map[string]string{
	"Path":         "the line names the event's path, which the lock's is",
	"Participants": "each contender's fields are guarded by TestEveryContenderFieldIsRecorded",
}

// TestEveryLockFieldIsRecorded: each of a lock's own fields, changed
// alone from the line before, comes back from a recording as it went in,
// unless derivedLockFields says why it need not.
func TestEveryLockFieldIsRecorded(t *testing.T) {
	fields := fieldPaths(reflect.TypeFor[lockcore.Lock](), "")
	for name := range derivedLockFields {
		if !slices.ContainsFunc(fields, func(f fieldPath) bool { return f.name == name || strings.HasPrefix(f.name, name+".") }) {
			t.Errorf("derivedLockFields names %s, which a lock does not have", name)
		}
	}
	at := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	for _, f := range fields {
		if isDerived(derivedLockFields, f.name) {
			continue
		}
		first := guardLock(at, 2)
		changed := guardLock(at, 2)
		want := setDifferent(t, reflect.ValueOf(changed).Elem(), f.index)
		e, d := newEncoder(at), newDecoder(at, Version)
		var last zkwatch.Event
		for _, l := range []*lockcore.Lock{first, changed} {
			b, err := e.encode(zkwatch.Event{Kind: zkwatch.EventLock, At: at, Path: l.Path, Lock: l}, false)
			if err != nil {
				t.Fatal(err)
			}
			if last, _, err = d.decode(b); err != nil {
				t.Fatalf("%s: %v", f.name, err)
			}
		}
		var got any
		if v, ok := fieldAt(reflect.ValueOf(*last.Lock), f.index); ok {
			got = v.Interface()
		}
		if !sameValue(got, want) {
			t.Errorf("the lock's %s is neither recorded nor in derivedLockFields: wrote %v, read back %v", f.name, want, got)
		}
	}
}

package jute

import (
	"bytes"
	"errors"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	var w Writer
	w.Int(-124)
	w.Long(0x100008e2d9b0002)
	w.Bool(true)
	w.Buffer(nil)
	w.Buffer([]byte{})
	w.Buffer([]byte("tok"))
	w.String("/locks/orders")
	r := NewReader(w.Bytes())
	if got := r.Int(); got != -124 {
		t.Errorf("Int = %d", got)
	}
	if got := r.Long(); got != 0x100008e2d9b0002 {
		t.Errorf("Long = %#x", got)
	}
	if !r.Bool() {
		t.Error("Bool = false")
	}
	if got := r.Buffer(); got != nil {
		t.Errorf("null buffer = %v, want nil", got)
	}
	if got := r.Buffer(); got == nil || len(got) != 0 {
		t.Errorf("empty buffer = %v, want empty non-nil", got)
	}
	if got := r.Buffer(); string(got) != "tok" {
		t.Errorf("Buffer = %q", got)
	}
	if got := r.String(); got != "/locks/orders" {
		t.Errorf("String = %q", got)
	}
	if r.Err() != nil || r.Remaining() != 0 {
		t.Errorf("err %v, %d left", r.Err(), r.Remaining())
	}
}

func TestEmptyBufferIsLengthZero(t *testing.T) {
	var w Writer
	w.Buffer([]byte{})
	if !bytes.Equal(w.Bytes(), []byte{0, 0, 0, 0}) {
		t.Errorf("empty buffer encoded as %v, want length 0", w.Bytes())
	}
}

func TestShortRecordIsStickyError(t *testing.T) {
	r := NewReader([]byte{0, 0, 0, 1, 0, 0})
	if r.Int() != 1 {
		t.Fatal("first Int")
	}
	if got := r.Long(); got != 0 {
		t.Errorf("short Long = %d, want 0", got)
	}
	r.Int() // after the failure, still zero and the first error kept
	if !errors.Is(r.Err(), ErrShort) {
		t.Errorf("Err = %v, want ErrShort", r.Err())
	}
}

func TestImpossibleLengths(t *testing.T) {
	for name, b := range map[string][]byte{
		"negative":     {0xff, 0xff, 0xff, 0xfe},
		"past the end": {0, 0, 0, 9, 'a'},
		"huge count":   {0x7f, 0xff, 0xff, 0xff},
	} {
		r := NewReader(b)
		if name == "huge count" {
			r.Count(12)
		} else {
			r.Buffer()
		}
		if !errors.Is(r.Err(), ErrLength) {
			t.Errorf("%s: Err = %v, want ErrLength", name, r.Err())
		}
	}
}

func TestFrame(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteFrame(&buf, []byte("abc")); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFrame(&buf, 10)
	if err != nil || string(got) != "abc" {
		t.Fatalf("ReadFrame = %q, %v", got, err)
	}
	buf.Write([]byte{0, 0, 1, 0})
	if _, err := ReadFrame(&buf, 10); !errors.Is(err, ErrLength) {
		t.Errorf("oversized frame: %v, want ErrLength", err)
	}
}

func TestErrorName(t *testing.T) {
	if got := ErrorName(ErrSessionClosedRequireSASL); got != "SESSIONCLOSEDREQUIRESASLAUTH" {
		t.Errorf("ErrorName(-124) = %q", got)
	}
	if got := ErrorName(-999); got != "error -999" {
		t.Errorf("ErrorName(-999) = %q", got)
	}
}

func TestAddWatchAndRemoveWatchesEncoding(t *testing.T) {
	var w Writer
	RequestHeader{Xid: 7, OpCode: OpAddWatch}.Write(&w)
	AddWatchRequest{Path: "/a", Mode: AddWatchPersistentRecursive}.Write(&w)
	want := []byte{0, 0, 0, 7, 0, 0, 0, 106, 0, 0, 0, 2, '/', 'a', 0, 0, 0, 1}
	if !bytes.Equal(w.Bytes(), want) {
		t.Errorf("addWatch = %v, want %v", w.Bytes(), want)
	}
	var r Writer
	RemoveWatchesRequest{Path: "/a", Type: WatcherAny}.Write(&r)
	if want := []byte{0, 0, 0, 2, '/', 'a', 0, 0, 0, 3}; !bytes.Equal(r.Bytes(), want) {
		t.Errorf("removeWatches = %v, want %v", r.Bytes(), want)
	}
	var a Writer
	AuthPacket{Scheme: "digest", Auth: []byte("u:p")}.Write(&a)
	if want := []byte{0, 0, 0, 0, 0, 0, 0, 6, 'd', 'i', 'g', 'e', 's', 't', 0, 0, 0, 3, 'u', ':', 'p'}; !bytes.Equal(a.Bytes(), want) {
		t.Errorf("auth = %v, want %v", a.Bytes(), want)
	}
}

func TestVectors(t *testing.T) {
	var w Writer
	w.Int(2)
	w.Int(PermRead)
	w.String("world")
	w.String("anyone")
	w.Int(PermAll)
	w.String("digest")
	w.String("ops:hash")
	w.Int(1)
	w.String("sasl")
	w.String("zk/host@REALM")
	w.Int(-1) // a null vector
	r := NewReader(w.Bytes())
	acls := ReadACLs(r)
	if len(acls) != 2 || acls[0] != (ACL{PermRead, ID{"world", "anyone"}}) || acls[1] != (ACL{PermAll, ID{"digest", "ops:hash"}}) {
		t.Errorf("ReadACLs = %+v", acls)
	}
	if infos := ReadClientInfos(r); len(infos) != 1 || infos[0] != (ClientInfo{"sasl", "zk/host@REALM"}) {
		t.Errorf("ReadClientInfos = %+v", infos)
	}
	if infos := ReadClientInfos(r); infos == nil || len(infos) != 0 {
		t.Errorf("null vector = %#v, want empty", infos)
	}
	if r.Err() != nil || r.Remaining() != 0 {
		t.Errorf("err %v, %d left", r.Err(), r.Remaining())
	}
}

func TestVectorCutShortStops(t *testing.T) {
	var w Writer
	w.Int(2)
	w.String("sasl")
	w.String("a")
	w.String("sasl") // the second element's user is missing
	r := NewReader(w.Bytes())
	infos := ReadClientInfos(r)
	if r.Err() == nil || len(infos) > 2 || infos[0] != (ClientInfo{"sasl", "a"}) {
		t.Errorf("ReadClientInfos = %+v, err %v: want the first and an error", infos, r.Err())
	}
	// A count that cannot fit in what is left is refused before any
	// element is read.
	w = Writer{}
	w.Int(1 << 30)
	r = NewReader(w.Bytes())
	if acls := ReadACLs(r); len(acls) != 0 || !errors.Is(r.Err(), ErrLength) {
		t.Errorf("huge count: %d ACLs, err %v", len(acls), r.Err())
	}
}

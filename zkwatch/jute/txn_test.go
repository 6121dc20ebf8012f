package jute

import (
	"io"
	"slices"
	"testing"
)

func createBody(w *Writer, path string, ephemeral bool) {
	w.String(path)
	w.Buffer([]byte("data"))
	w.Int(1) // one ACL
	w.Int(PermAll)
	w.String("world")
	w.String("anyone")
	w.Bool(ephemeral)
	w.Int(3)
}

func digest(w *Writer) {
	w.Int(2)
	w.Long(0x1234567890)
}

func TestReadTxn(t *testing.T) {
	type tc struct {
		typ   int32
		write func(*Writer)
		check func(Txn) bool
	}
	for name, c := range map[string]tc{
		"create": {OpCreate, func(w *Writer) { createBody(w, "/l/n", true) },
			func(x Txn) bool {
				return x.Path == "/l/n" && x.Ephemeral && string(x.Data) == "data" && x.ParentCVersion == 3
			}},
		"create2 with digest": {OpCreate2, func(w *Writer) { createBody(w, "/l/n", false); digest(w) },
			func(x Txn) bool { return x.Path == "/l/n" && !x.Ephemeral }},
		"createTTL": {OpCreateTTL, func(w *Writer) {
			w.String("/t")
			w.Buffer(nil)
			w.Int(0)
			w.Int(-1)
			w.Long(5000)
		}, func(x Txn) bool { return x.Path == "/t" && x.TTL == 5000 && x.ParentCVersion == -1 }},
		"delete":        {OpDelete, func(w *Writer) { w.String("/l/n") }, func(x Txn) bool { return x.Path == "/l/n" }},
		"createSession": {OpCreateSession, func(w *Writer) { w.Int(10000) }, func(x Txn) bool { return x.Timeout == 10000 }},
		"closeSession with its body": {OpCloseSession, func(w *Writer) {
			w.Int(2)
			w.String("/l/a")
			w.String("/l/b")
			digest(w)
		}, func(x Txn) bool { return slices.Equal(x.Closed, []string{"/l/a", "/l/b"}) }},
		"closeSession without a body, with a digest": {OpCloseSession, digest, func(x Txn) bool { return x.Closed == nil }},
		"closeSession without a body":                {OpCloseSession, func(*Writer) {}, func(x Txn) bool { return x.Closed == nil }},
		"multi": {OpMulti, func(w *Writer) {
			w.Int(2)
			var c, d Writer
			createBody(&c, "/l/n", true)
			d.String("/l/m")
			w.Int(OpCreate)
			w.Buffer(c.Bytes())
			w.Int(OpDelete)
			w.Buffer(d.Bytes())
		}, func(x Txn) bool {
			return len(x.Ops) == 2 && x.Ops[0].Type == OpCreate && x.Ops[0].Path == "/l/n" && x.Ops[1].Path == "/l/m"
		}},
		"error": {OpError, func(w *Writer) { w.Int(ErrNoNode) }, func(x Txn) bool { return x.Err == ErrNoNode }},
	} {
		var w Writer
		c.write(&w)
		r := NewReader(w.Bytes())
		x := ReadTxn(r, c.typ)
		if r.Err() != nil || !c.check(x) {
			t.Errorf("%s: %+v, err %v", name, x, r.Err())
		}
	}
}

func TestReadTxnShortIsAnError(t *testing.T) {
	var w Writer
	w.String("/l/n")
	r := NewReader(w.Bytes()[:3])
	ReadTxn(r, OpDelete)
	if r.Err() == nil {
		t.Error("a cut record read without error")
	}
	var m Writer
	m.Int(1)
	m.Int(OpCreate)
	m.Buffer([]byte{0, 0, 0, 9, 'x'})
	r = NewReader(m.Bytes())
	ReadTxn(r, OpMulti)
	if r.Err() == nil {
		t.Error("a multi whose part does not decode read without error")
	}
}

func TestSessionOwners(t *testing.T) {
	for owner, want := range map[int64]bool{0: false, OwnerContainer: false, -0x100000000000000 | 5000: false, 0x100000b4214000d: true} {
		if got := IsSessionOwner(owner); got != want {
			t.Errorf("IsSessionOwner(%#x) = %v", owner, got)
		}
	}
}

func TestStreamReader(t *testing.T) {
	var w Writer
	w.Int(7)
	w.Buffer([]byte("ab"))
	w.String("a longer string than eight bytes")
	b := w.Bytes()
	r := NewStreamReader(&sliceReader{b}, int64(len(b)), nil)
	if r.Int() != 7 || string(r.Buffer()) != "ab" || r.String() != "a longer string than eight bytes" || r.Err() != nil {
		t.Errorf("stream read wrong: %v", r.Err())
	}
	r = NewStreamReader(&sliceReader{b[:6]}, 100, nil)
	r.Int()
	r.Buffer()
	if r.Err() == nil {
		t.Error("a stream cut short read without error")
	}
}

type sliceReader struct{ b []byte }

func (s *sliceReader) Read(p []byte) (int, error) {
	if len(s.b) == 0 {
		return 0, errEOF
	}
	n := copy(p, s.b)
	s.b = s.b[n:]
	return n, nil
}

var errEOF = io.EOF

package txnlog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/zklocks/zklocks/zkwatch/jute"
)

// readAll takes every record of the log at path, ahead or directly, each
// record's data copied as it is taken, and the error the log ended with.
func readAll(t *testing.T, path string, ahead bool) ([]string, error) {
	t.Helper()
	l, err := openLog(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if ahead {
		l.startReadAhead()
	}
	var out []string
	var prev []byte
	var prevData string
	for {
		// A record's data must hold until the next record is taken,
		// while the read-ahead reads on.
		runtime.Gosched()
		if prev != nil && string(prev) != prevData {
			t.Fatalf("record %d's data changed before the next was taken", len(out))
		}
		rec, err := l.next()
		if err != nil {
			return out, err
		}
		prev, prevData = rec.Txn.Data, string(rec.Txn.Data)
		out = append(out, fmt.Sprintf("%#x %s %q", rec.Header.Zxid, rec.Txn.Path, rec.Txn.Data))
	}
}

func TestReadAheadGivesWhatADirectReadGives(t *testing.T) {
	w := newTxnWriter()
	w.session(1)
	w.create(1, jute.OpCreate, "/locks", false)
	// Enough records for several batches, each with data of its own.
	for i := range 3*aheadBatch + 17 {
		p := fmt.Sprintf("/locks/n%04d", i)
		w.record(1, jute.OpCreate, func(r *jute.Writer) {
			r.String(p)
			r.Buffer(bytes.Repeat([]byte{byte('a' + i%26)}, 1+i%300))
			r.Int(1)
			r.Int(jute.PermAll)
			r.String("world")
			r.String("anyone")
			r.Bool(false)
			r.Int(-1)
		})
	}
	whole := w.dir(t)
	cut := t.TempDir()
	b := w.out.Bytes()
	if err := os.WriteFile(filepath.Join(cut, "log.1"), b[:len(b)-40], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		end  error
	}{{v2(whole, "log.1"), io.EOF}, {filepath.Join(cut, "log.1"), ErrTruncated}} {
		direct, derr := readAll(t, c.path, false)
		ahead, aerr := readAll(t, c.path, true)
		if !errors.Is(derr, c.end) || !errors.Is(aerr, c.end) {
			t.Fatalf("%s: ended with %v directly and %v ahead, want %v", c.path, derr, aerr, c.end)
		}
		if derr.Error() != aerr.Error() {
			t.Errorf("%s: the end said %q directly and %q ahead", c.path, derr, aerr)
		}
		if len(direct) < 3*aheadBatch || len(ahead) != len(direct) {
			t.Fatalf("%s: %d records directly, %d ahead", c.path, len(direct), len(ahead))
		}
		for i := range direct {
			if ahead[i] != direct[i] {
				t.Fatalf("%s: record %d is %s ahead, %s directly", c.path, i, ahead[i], direct[i])
			}
		}
	}
}

func TestReadAheadStopsWhenClosedEarly(t *testing.T) {
	w := newTxnWriter()
	w.session(1)
	for i := range 4 * aheadBatch {
		w.create(1, jute.OpCreate, fmt.Sprintf("/n%d", i), false)
	}
	l, err := openLog(v2(w.dir(t), "log.1"))
	if err != nil {
		t.Fatal(err)
	}
	l.startReadAhead()
	if _, err := l.next(); err != nil {
		t.Fatal(err)
	}
	// The read-ahead blocks with its batches full; Close must end it
	// rather than wait for a taker.
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestReadAheadBatchIsBoundedByItsData(t *testing.T) {
	w := newTxnWriter()
	w.session(1)
	big := bytes.Repeat([]byte{'d'}, 60_000)
	for i := range 100 {
		w.record(1, jute.OpSetData, func(r *jute.Writer) {
			r.String(fmt.Sprintf("/n%d", i))
			r.Buffer(big)
			r.Int(int32(i))
		})
	}
	l, err := openLog(v2(w.dir(t), "log.1"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.startReadAhead()
	for range 2 {
		if _, err := l.next(); err != nil {
			t.Fatal(err)
		}
	}
	// The bound is passed by the record that crosses it; the session's
	// record holds no data.
	if n, most := len(l.ahead.cur.recs), aheadBatchSize/len(big)+2; n > most {
		t.Errorf("a batch holds %d records of %d bytes, more than %d", n, len(big), most)
	}
}

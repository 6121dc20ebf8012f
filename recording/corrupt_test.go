package recording

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zklocks/zklocks/zkwatch"
)

// A recording cut short, as a killed writer leaves it, reads up to where
// the stream stops and says so, naming the line.
func TestTruncated(t *testing.T) {
	evs := mixed(t, 2000)
	path := record(t, evs, Options{})
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.zklocks")
	if err := os.WriteFile(cut, b[:len(b)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	rec, err := Load(cut)
	var le *LineError
	if !errors.As(err, &le) || !errors.Is(err, ErrTruncated) {
		t.Fatalf("err = %v, want a LineError wrapping ErrTruncated", err)
	}
	if le.Line != len(rec.Events)+2 || le.File != cut {
		t.Errorf("error at %s line %d after %d events (header is line 1)", le.File, le.Line, len(rec.Events))
	}
	if len(rec.Events) < 100 || len(rec.Events) >= len(evs) {
		t.Fatalf("read %d of %d events", len(rec.Events), len(evs))
	}
	for i, ev := range rec.Events {
		if d := diffEvent(evs[i], ev); d != "" {
			t.Fatalf("event %d: %s", i, d)
		}
	}
	if !strings.Contains(err.Error(), "line ") {
		t.Errorf("error does not name the line: %v", err)
	}
}

// A flushed but never closed recording (a crash after a flush) reads whole.
func TestUnclosed(t *testing.T) {
	evs := mixed(t, 500)
	path := filepath.Join(t.TempDir(), "open.zklocks")
	w, err := Create(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		w.Write(ev)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path) // as a crash would leave it: no gzip trailer
	w.Close()
	crashed := filepath.Join(t.TempDir(), "crashed.zklocks")
	os.WriteFile(crashed, b, 0o600)
	rec, err := Load(crashed)
	if !errors.Is(err, ErrTruncated) {
		t.Fatalf("err = %v, want ErrTruncated", err)
	}
	if len(rec.Events) != len(evs) {
		t.Fatalf("read %d of %d events flushed before the crash", len(rec.Events), len(evs))
	}
}

// A corrupt line stops the reading there, naming it; what came before is
// kept.
func TestCorruptLine(t *testing.T) {
	evs := mixed(t, 50)
	path := record(t, evs, Options{})
	f, _ := os.Open(path)
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var plain bytes.Buffer
	plain.ReadFrom(zr)
	f.Close()
	lines := strings.SplitAfter(plain.String(), "\n")
	lines[10] = `{"t":5,"k":"lock","l":999,"ps":[0]}` + "\n"
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write([]byte(strings.Join(lines, "")))
	zw.Close()
	bad := filepath.Join(t.TempDir(), "bad.zklocks")
	os.WriteFile(bad, out.Bytes(), 0o600)
	rec, err := Load(bad)
	var le *LineError
	if !errors.As(err, &le) || le.Line != 11 {
		t.Fatalf("err = %v, want line 11", err)
	}
	if len(rec.Events) != 9 {
		t.Errorf("read %d events before the bad line, want 9", len(rec.Events))
	}
	t.Log(err)
}

func TestNotARecording(t *testing.T) {
	for name, content := range map[string][]byte{"text": []byte("hello\n"), "empty": nil, "gzip of other": gz("{\"a\":1}\n")} {
		path := filepath.Join(t.TempDir(), name)
		os.WriteFile(path, content, 0o600)
		_, err := Load(path)
		if !errors.Is(err, ErrNotRecording) {
			t.Errorf("%s: err = %v, want ErrNotRecording", name, err)
		}
	}
	_, err := Read(bytes.NewReader(gz(`{"zklocks_recording":99}`+"\n")), func(zkwatch.Event, bool) {})
	if !errors.Is(err, ErrNewer) {
		t.Errorf("format 99: err = %v", err)
	}
}

func gz(s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

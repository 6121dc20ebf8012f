package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// castExt ends every session recording's name.
const castExt = ".cast"

// sweepEvery is how often recordings past their age limit are deleted.
const sweepEvery = time.Hour

// castName is a session recording's file name: when it began (UTC), the
// SSH user and who signed in (a certificate's key id, or the key's
// fingerprint), each reduced to characters safe in a file name.
func castName(start time.Time, who Who) string {
	id := who.Key.Fingerprint
	if who.Cert != nil {
		id = who.Cert.KeyID
	}
	return start.UTC().Format("20060102T150405Z") + "_" + safeName(who.User) + "_" + safeName(id) + castExt
}

// safeName keeps letters, digits and ._@- and makes anything else a '-'.
func safeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '@', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
		if b.Len() >= 64 {
			break
		}
	}
	if b.Len() == 0 || strings.HasPrefix(b.String(), ".") {
		return "-" + b.String()
	}
	return b.String()
}

// startCast begins a session's recording in dir (made 0700 if missing),
// under a name of its own.
func startCast(dir string, who Who, term string, w, h int, max int64) (*castFile, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	start := time.Now()
	name := castName(start, who)
	hdr := castHeader{Width: w, Height: h, Title: "zklocks serve: " + who.String(), Env: map[string]string{"TERM": term}}
	for i := 2; ; i++ {
		c, err := createCast(filepath.Join(dir, name), hdr, start, max)
		if !errors.Is(err, fs.ErrExist) || i > 100 {
			return c, err
		}
		name = strings.TrimSuffix(castName(start, who), castExt) + fmt.Sprintf("-%d", i) + castExt
	}
}

// sweepCasts deletes the recordings in dir last written more than maxAge
// ago, and returns how many.
func sweepCasts(dir string, maxAge time.Duration, now time.Time) (int, error) {
	if maxAge <= 0 {
		return 0, nil
	}
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), castExt) {
			continue
		}
		fi, err := e.Info()
		if err != nil || now.Sub(fi.ModTime()) <= maxAge {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err == nil {
			n++
		}
	}
	return n, nil
}

// Recording is one session recording, as ListRecordings reads it.
type Recording struct {
	// File is its path.
	File string
	// Start is when the session began; Duration how long it recorded.
	Start    time.Time
	Duration time.Duration
	// Title says who it was (the user, the key or certificate, from where).
	Title string
	Size  int64
	// Err says why the file could not be read as a recording.
	Err error
}

// ListRecordings reads the recordings in dir, oldest first.
func ListRecordings(dir string) ([]Recording, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []Recording
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), castExt) {
			continue
		}
		out = append(out, readRecording(filepath.Join(dir, e.Name())))
	}
	sort.Slice(out, func(i, j int) bool { return filepath.Base(out[i].File) < filepath.Base(out[j].File) })
	return out, nil
}

// readRecording reads a recording's header and its last event's time.
func readRecording(path string) Recording {
	r := Recording{File: path}
	f, err := os.Open(path)
	if err != nil {
		r.Err = err
		return r
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil {
		r.Size = fi.Size()
	}
	first, err := bufio.NewReader(f).ReadBytes('\n')
	var h castHeader
	if err != nil && !errors.Is(err, io.EOF) || json.Unmarshal(first, &h) != nil || h.Version != 2 {
		r.Err = errors.New("not an asciicast v2 file")
		return r
	}
	r.Start, r.Title = time.Unix(h.Timestamp, 0), h.Title
	// The last event is in the file's last few lines.
	tail := int64(64 * 1024)
	if r.Size < tail {
		tail = r.Size
	}
	buf := make([]byte, tail)
	if _, err := f.ReadAt(buf, r.Size-tail); err != nil && !errors.Is(err, io.EOF) {
		r.Err = err
		return r
	}
	lines := bytes.Split(bytes.TrimSpace(buf), []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		var ev []json.RawMessage
		var t float64
		if json.Unmarshal(lines[i], &ev) == nil && len(ev) == 3 && json.Unmarshal(ev[0], &t) == nil {
			r.Duration = time.Duration(t * float64(time.Second))
			break
		}
	}
	return r
}

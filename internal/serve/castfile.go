package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// castFile is one SSH session's screen as an asciicast v2 file, what
// `asciinema play` plays: a header line (a JSON object: version 2, the
// terminal's size, when it began, its title), then one event a line,
// [seconds since the start, "o", output] for what the session was shown
// and [seconds, "r", "WxH"] for each resize, their times never going back.
// Writing it never fails the session: a file that cannot be written, or
// that reached its size cap, stops recording and says why once (stopped).
type castFile struct {
	name  string
	start time.Time
	max   int64 // the size cap, in bytes; 0: none

	mu      sync.Mutex
	f       *os.File
	w       *bufio.Writer
	size    int64
	last    float64 // the last event's time
	pending []byte  // the end of an output cut inside a UTF-8 character
	stopped string  // why recording stopped; "" while it goes on
}

// castHeader is the asciicast v2 header.
type castHeader struct {
	Version   int               `json:"version"`
	Width     int               `json:"width"`
	Height    int               `json:"height"`
	Timestamp int64             `json:"timestamp"`
	Title     string            `json:"title,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
}

// createCast makes path (0600, never over an existing file) and writes
// the header.
func createCast(path string, h castHeader, start time.Time, max int64) (*castFile, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	h.Version, h.Timestamp = 2, start.Unix()
	c := &castFile{name: path, start: start, max: max, f: f, w: bufio.NewWriterSize(f, 32*1024)}
	b, _ := json.Marshal(h) // numbers and strings
	if err := c.line(b); err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	return c, nil
}

// line writes one line and flushes it: a session that ends abruptly
// leaves a file that plays up to its last frame.
func (c *castFile) line(b []byte) error {
	if _, err := c.w.Write(append(b, '\n')); err != nil {
		return err
	}
	c.size += int64(len(b) + 1)
	return c.w.Flush()
}

// offset is at's time in the recording, in seconds.
func (c *castFile) offset(at time.Time) float64 {
	return max(at.Sub(c.start).Seconds(), 0)
}

// output records what the session was shown now.
func (c *castFile) output(p []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	data := append(c.pending, p...)
	// A character cut between two writes is kept for the next one: JSON
	// would turn each half into U+FFFD.
	cut := len(data)
	for i := len(data) - 1; i >= 0 && i >= len(data)-utf8.UTFMax; i-- {
		if utf8.RuneStart(data[i]) {
			if !utf8.FullRune(data[i:]) {
				cut = i
			}
			break
		}
	}
	c.pending = append([]byte(nil), data[cut:]...)
	if cut > 0 {
		c.event("o", string(data[:cut]))
	}
}

// resize records the terminal's new size.
func (c *castFile) resize(w, h int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.event("r", strconv.Itoa(w)+"x"+strconv.Itoa(h))
}

// event writes one event line, its time never before the last one's.
func (c *castFile) event(kind, data string) {
	if c.stopped != "" {
		return
	}
	c.last = max(c.last, time.Since(c.start).Seconds())
	b := eventLine(c.last, kind, data)
	if c.max > 0 && c.size+int64(len(b))+1 > c.max {
		c.stop(fmt.Sprintf("it reached its size cap (%d bytes)", c.max))
		return
	}
	if err := c.line(b); err != nil {
		c.stop(err.Error())
	}
}

// eventLine is one event line, without its newline. Only what JSON
// requires is escaped: not <, > and &, which would take six bytes each.
func eventLine(at float64, kind, data string) []byte {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	_ = e.Encode([]any{json.Number(strconv.FormatFloat(at, 'f', 6, 64)), kind, data}) // a number and strings
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func (c *castFile) stop(why string) {
	c.stopped = why
	if c.max > 0 {
		// Said in the recording, where someone playing it looks.
		_ = c.line(eventLine(c.last, "o", "\x1b[0m\r\n[zklocks serve: the recording stopped here: "+why+"]\r\n"))
	}
}

// close ends the file; it reports why recording stopped early, if it did.
func (c *castFile) close() (stopped string, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ferr := c.w.Flush(); ferr != nil && c.stopped == "" {
		err = ferr
	}
	if cerr := c.f.Close(); err == nil {
		err = cerr
	}
	return c.stopped, err
}

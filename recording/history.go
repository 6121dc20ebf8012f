package recording

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

// History defaults: a week, within 2 GiB. At the 1,000 changes a second
// of make bench-record a minute takes under 1 MB, so 2 GiB holds a day and
// a half of that and a week of about 200 changes a second, every second;
// beyond it the oldest parts go first.
const (
	DefaultHistoryAge  = 7 * 24 * time.Hour
	DefaultHistorySize = 2 << 30
)

// HistoryOptions configure a History.
type HistoryOptions struct {
	// MaxAge: a part that ended longer ago than this is deleted whole;
	// zero keeps parts whatever their age.
	MaxAge time.Duration
	// MaxSize bounds the bytes of all the parts together: the oldest are
	// deleted whole to stay within it; zero bounds nothing.
	MaxSize int64
	// Header is written at the start of each part (Run is filled in).
	Header Header
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Warn hears of parts that could not be deleted.
	Warn func(error)
}

// partSuffix ends every part's name, partPrefix begins it.
const (
	partPrefix = "history-"
	partSuffix = ".zklocks"
)

// partTime is the layout of a part's start in its name: names sort as
// their starts do.
const partTime = "20060102T150405.000000Z"

// History is a rolling recording kept in a directory, one part a file
// named by its start: what an always-on process saw, kept by age and by
// size, the oldest parts deleted whole. Each part opens with a snapshot,
// so the parts left after the oldest are deleted still replay; a History
// opened again on the same directory continues its parts' numbering, and
// reading them in a row (ReadParts) tells the gap between the two runs
// from a part that continues the one before it.
//
// A History is safe for concurrent use: Write from the reader of the
// watcher's events, Parts and Flush from readers of the history.
type History struct {
	dir string
	opt HistoryOptions
	w   *Writer
	// pruneMu serialises pruning: at a rotation and from Prune.
	pruneMu sync.Mutex
}

// OpenHistory starts recording into dir (created 0700 if missing),
// continuing the parts already there, and deletes those beyond the caps.
func OpenHistory(dir string, opt HistoryOptions) (*History, error) {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Warn == nil {
		opt.Warn = func(error) {}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("recording: history: %w", err)
	}
	h := &History{dir: dir, opt: opt}
	first := 1
	if parts, _ := ListParts(dir); len(parts) > 0 {
		first = lastPartNumber(parts) + 1
	}
	hd := opt.Header
	hd.Run = opt.Now()
	w, err := Create("", Options{Header: hd, Now: opt.Now, FirstPart: first, MaxSize: partSize(opt.MaxSize),
		MaxAge: partAge(opt.MaxAge), Name: h.partName, Rotated: func(string) { go h.Prune() }})
	if err != nil {
		return nil, err
	}
	h.w = w
	h.Prune()
	return h, nil
}

// partSize is how large a part grows before the next begins: a
// twentieth of the cap (at least 16 KiB), so that deleting the oldest
// part gives back a twentieth of it; 64 MiB without a cap.
func partSize(maxSize int64) int64 {
	if maxSize <= 0 {
		return 64 << 20
	}
	return max(maxSize/20, 16<<10)
}

// partAge is how long a part lasts at most: a fiftieth of the age cap,
// at least a second and at most an hour, so that the oldest part goes
// soon after it passes the cap, and a range reads little before its
// start.
func partAge(maxAge time.Duration) time.Duration {
	if maxAge <= 0 {
		return time.Hour
	}
	return min(max(maxAge/50, time.Second), time.Hour)
}

func (h *History) partName(_ int, started time.Time) string {
	return filepath.Join(h.dir, partPrefix+started.UTC().Format(partTime)+partSuffix)
}

// Dir is the directory the parts are in.
func (h *History) Dir() string { return h.dir }

// Write records ev; see Writer.Write.
func (h *History) Write(ev zkwatch.Event) error { return h.w.Write(ev) }

// Flush pushes what has been recorded so far to the current part, so
// that a reader of the parts sees it.
func (h *History) Flush() error { return h.w.Flush() }

// Current is the name of the part being written: a reader of it finds
// it ends in the middle.
func (h *History) Current() string { return h.w.Current() }

// Close ends the current part; the history can be opened again later.
func (h *History) Close() error { return h.w.Close() }

// Part is one file of a history.
type Part struct {
	Name    string
	Started time.Time
	Size    int64
}

// ListParts returns the parts in dir, oldest first, by their names; it
// reads none of them.
func ListParts(dir string) ([]Part, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("recording: history: %w", err)
	}
	var parts []Part
	for _, e := range ents {
		name := e.Name()
		stamp, ok := strings.CutPrefix(name, partPrefix)
		if !ok || e.IsDir() {
			continue
		}
		if stamp, ok = strings.CutSuffix(stamp, partSuffix); !ok {
			continue
		}
		started, err := time.Parse(partTime, stamp)
		if err != nil {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		parts = append(parts, Part{Name: filepath.Join(dir, name), Started: started, Size: info.Size()})
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i].Started.Before(parts[j].Started) })
	return parts, nil
}

// lastPartNumber is the part number in the header of the newest of parts
// that has one.
func lastPartNumber(parts []Part) int {
	for i := len(parts) - 1; i >= 0; i-- {
		if hd, err := ReadHeader(parts[i].Name); err == nil {
			return hd.Part
		}
	}
	return 0
}

// ReadHeader reads the header of the part at name.
func ReadHeader(name string) (Header, error) {
	f, err := os.Open(name)
	if err != nil {
		return Header{}, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		return Header{}, &LineError{File: name, Line: 1, Err: fmt.Errorf("%w (not gzip: %v)", ErrNotRecording, err)}
	}
	b, err := readLine(bufio.NewReader(zr))
	if err != nil {
		return Header{}, &LineError{File: name, Line: 1, Err: err}
	}
	hd, err := parseHeader(b)
	if err != nil {
		return hd, &LineError{File: name, Line: 1, Err: err}
	}
	return hd, nil
}

// Prune deletes the oldest parts, whole, while the parts take more than
// MaxSize or the oldest ended longer ago than MaxAge. The part being
// written is never deleted.
func (h *History) Prune() {
	h.pruneMu.Lock()
	defer h.pruneMu.Unlock()
	parts, err := ListParts(h.dir)
	if err != nil {
		h.opt.Warn(err)
		return
	}
	current := h.w.Current()
	var total int64 // of the parts done
	for _, p := range parts {
		if p.Name != current {
			total += p.Size
		}
	}
	now := h.opt.Now()
	// The part being written may still grow by a part's size: the others
	// leave room for it.
	budget := h.opt.MaxSize - partSize(h.opt.MaxSize)
	for i := 0; i+1 < len(parts) && parts[i].Name != current; i++ {
		// A part ends when the next one begins.
		old := h.opt.MaxAge > 0 && now.Sub(parts[i+1].Started) > h.opt.MaxAge
		big := h.opt.MaxSize > 0 && total > budget
		if !old && !big {
			break
		}
		if err := os.Remove(parts[i].Name); err != nil && !errors.Is(err, os.ErrNotExist) {
			h.opt.Warn(fmt.Errorf("history: %w", err))
			break
		}
		total -= parts[i].Size
	}
}

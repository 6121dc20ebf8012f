package serve

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/ui"
)

// castEvent is one event line of an asciicast v2 file.
type castEvent struct {
	t    float64
	kind string
	data string
}

// readCast parses a recording as asciinema reads one: a header object of
// version 2 with the terminal's size, then event arrays [time, code,
// data] whose times never go back.
func readCast(t *testing.T, path string) (castHeader, []castEvent) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	if !sc.Scan() {
		t.Fatal("an empty recording")
	}
	var h castHeader
	if err := json.Unmarshal(sc.Bytes(), &h); err != nil || h.Version != 2 || h.Width <= 0 || h.Height <= 0 || h.Timestamp <= 0 {
		t.Fatalf("header %q: %+v %v", sc.Text(), h, err)
	}
	var evs []castEvent
	last := 0.0
	for n := 2; sc.Scan(); n++ {
		var raw []json.RawMessage
		var e castEvent
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil || len(raw) != 3 ||
			json.Unmarshal(raw[0], &e.t) != nil || json.Unmarshal(raw[1], &e.kind) != nil || json.Unmarshal(raw[2], &e.data) != nil {
			t.Fatalf("line %d is not an event: %q", n, sc.Text())
		}
		if e.t < last {
			t.Fatalf("line %d goes back in time: %v after %v", n, e.t, last)
		}
		if e.kind != "o" && e.kind != "r" {
			t.Fatalf("line %d: event code %q", n, e.kind)
		}
		last = e.t
		evs = append(evs, e)
	}
	return h, evs
}

// drawnViews is a UI that keeps every view it draws, those the recorder
// draws at an earlier time included.
type drawnViews struct {
	tea.Model
	seen *viewSet
}

type viewSet struct {
	mu    sync.Mutex
	views map[string]bool
}

func (d drawnViews) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := d.Model.Update(msg)
	return drawnViews{m, d.seen}, cmd
}

func (d drawnViews) View() string {
	v := d.Model.View()
	d.seen.mu.Lock()
	defer d.seen.mu.Unlock()
	d.seen.views[v] = true
	return v
}

// A recorded session: its file (0600, named by time, user and key) plays
// as asciicast v2, each frame showing exactly a screen the UI drew; the
// audit line of its force-release names the file and the offset of the
// key that confirmed the dialog: the screen the recording shows there is
// the dialog, and not yet its outcome.
func TestIntegrationRecordedSession(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "casts")
	audit := &zktest.SyncBuffer{}
	seen := &viewSet{views: map[string]bool{}}
	r := startRig(t, func(c *Config) {
		c.RecordDir, c.RecordMaxSize, c.RecordMaxAge = dir, 8<<20, time.Hour
		c.Audit = model.NewAudit(audit)
		c.newModel = func(o ui.Options) tea.Model { return drawnViews{ui.New(o), seen} }
	})
	zc := r.zks.Connect(t)
	held := takeLock(t, zc, "/it/orders")
	a := r.open("alice", "alice")
	a.waitText("/it/orders")
	send := func(keys ...string) {
		for _, k := range keys {
			if _, err := a.in.Write([]byte(k)); err != nil {
				t.Fatal(err)
			}
		}
	}
	send("/", "o", "r", "d", "e", "r", "s", "\r", "\r")
	a.waitText("1 holding")
	send("g", "D")
	a.waitText("Force-release: delete")
	send("y")
	zktest.WaitUntil(t, 30*time.Second, func() string {
		if audit.String() != "" {
			return ""
		}
		return "no audit line; the session showed:\n" + ansi.Strip(a.out.String())
	})
	a.waitText("force-released")
	send("q")
	if code := a.wait(); code != 0 {
		t.Fatalf("the session quit with %d", code)
	}

	var line struct {
		Node      string `json:"node"`
		Recording struct {
			File   string  `json:"file"`
			Offset float64 `json:"offset"`
		} `json:"recording"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(audit.String())), &line); err != nil || line.Node != held.Node {
		t.Fatalf("audit line %q: %v", audit.String(), err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.cast"))
	if err != nil || len(files) != 1 || files[0] != line.Recording.File {
		t.Fatalf("recordings %v, the audit line names %q", files, line.Recording.File)
	}
	if ok, _ := regexp.MatchString(`^\d{8}T\d{6}Z_alice_SHA256-[A-Za-z0-9-]+\.cast$`, filepath.Base(files[0])); !ok {
		t.Fatalf("recording named %s", filepath.Base(files[0]))
	}
	if fi, err := os.Stat(files[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("recording mode: %v %v", fi, err)
	}
	h, evs := readCast(t, files[0])
	if h.Width != 100 || h.Height != 30 || !strings.Contains(h.Title, `user "alice"`) {
		t.Fatalf("header %+v", h)
	}
	seen.mu.Lock()
	drawn := map[string]bool{}
	for v := range seen.views {
		drawn[fmt.Sprint(shownScreen(t, h.Width, h.Height, v).cells)] = true
	}
	seen.mu.Unlock()
	played := newTermScreen(t, h.Width, h.Height)
	for i, e := range evs {
		played.play(e)
		if e.kind == "o" && !drawn[fmt.Sprint(played.cells)] {
			t.Fatalf("frame %d, at %.3f s, shows a screen the UI never drew:\n%s", i, e.t, strings.Join(played.text(), "\n"))
		}
	}
	var before, all strings.Builder
	for _, e := range evs {
		if e.kind == "o" && e.t <= line.Recording.Offset {
			before.WriteString(e.data)
		}
		all.WriteString(e.data)
	}
	if shown := ansi.Strip(before.String()); !strings.Contains(shown, "Force-release: delete") || strings.Contains(shown, "force-released") {
		t.Fatalf("up to the offset %.3f the recording does not show the dialog alone:\n%s", line.Recording.Offset, shown)
	}
	// The screen at the offset, as the frames drew it, is the dialog.
	if shown := strings.Join(playCast(t, h, evs, line.Recording.Offset).text(), "\n"); !strings.Contains(shown, "Force-release: delete") || !strings.Contains(shown, "/it/orders") ||
		strings.Contains(shown, "force-released") {
		t.Fatalf("the screen at the offset %.3f is not the dialog:\n%s", line.Recording.Offset, shown)
	}
	if !strings.Contains(ansi.Strip(all.String()), "force-released") {
		t.Fatal("the recording misses the force-release's outcome")
	}
	recs, err := ListRecordings(dir)
	if err != nil || len(recs) != 1 || recs[0].Err != nil || !strings.Contains(recs[0].Title, `user "alice"`) || recs[0].Duration <= 0 {
		t.Fatalf("ListRecordings: %+v %v", recs, err)
	}
}

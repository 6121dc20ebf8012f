package report

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/zklocks/zklocks/model"
)

// A story written by encoding/json's reflection cost every lock's
// postmortem more than the rest of its telling, for documents of
// hundreds of megabytes. appendStoryJSON writes the same bytes as
// json.MarshalIndent(st, storyPrefix, storyIndent), field by field; a
// story it cannot write so (a time outside what encoding/json writes
// without an error) is left to encoding/json, error and all.

// storyPrefix and storyIndent indent a story within Stories' document.
const (
	storyPrefix = "    "
	storyIndent = "  "
)

// marshalStory is st as json.MarshalIndent(st, storyPrefix, storyIndent)
// writes it, appended to b.
func marshalStory(b []byte, st model.Story) ([]byte, error) {
	if out, ok := appendStoryJSON(b, st); ok {
		return out, nil
	}
	raw, err := json.MarshalIndent(st, storyPrefix, storyIndent)
	if err != nil {
		return b, err
	}
	return append(b, raw...), nil
}

// jsonOut writes an indented JSON document: open and close a container,
// key a member, and values.
type jsonOut struct {
	b []byte
	// empty, per open container: nothing written in it yet.
	empty []bool
	// bad: a time encoding/json would have refused.
	bad bool
}

func (w *jsonOut) newline() {
	w.b = append(w.b, '\n')
	w.b = append(w.b, storyPrefix...)
	for range w.empty {
		w.b = append(w.b, storyIndent...)
	}
}

func (w *jsonOut) open(c byte) {
	w.b = append(w.b, c)
	w.empty = append(w.empty, true)
}

func (w *jsonOut) close(c byte) {
	empty := w.empty[len(w.empty)-1]
	w.empty = w.empty[:len(w.empty)-1]
	if !empty {
		w.newline()
	}
	w.b = append(w.b, c)
}

// elem starts the next element of the open container.
func (w *jsonOut) elem() {
	if n := len(w.empty) - 1; w.empty[n] {
		w.empty[n] = false
	} else {
		w.b = append(w.b, ',')
	}
	w.newline()
}

func (w *jsonOut) key(k string) {
	w.elem()
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, '"', ':', ' ')
}

// str writes s as encoding/json does (HTML-safe, invalid UTF-8 replaced):
// plain ASCII as it is, anything else by encoding/json itself.
func (w *jsonOut) str(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			raw, _ := json.Marshal(s) // a string always marshals
			w.b = append(w.b, raw...)
			return
		}
	}
	w.b = append(w.b, '"')
	w.b = append(w.b, s...)
	w.b = append(w.b, '"')
}

func (w *jsonOut) int(n int64) { w.b = strconv.AppendInt(w.b, n, 10) }

func (w *jsonOut) bool(v bool) { w.b = strconv.AppendBool(w.b, v) }

// time writes t as time.Time's MarshalJSON does; one it would refuse
// (a year past four digits, an offset of a day or more) marks w bad.
func (w *jsonOut) time(t time.Time) {
	_, off := t.Zone()
	if y := t.Year(); y < 0 || y > 9999 || off <= -24*3600 || off >= 24*3600 {
		w.bad = true
		return
	}
	w.b = append(w.b, '"')
	w.b = t.AppendFormat(w.b, time.RFC3339Nano)
	w.b = append(w.b, '"')
}

// Members, with encoding/json's omitempty and omitzero.
func (w *jsonOut) strKey(k, v string)            { w.key(k); w.str(v) }
func (w *jsonOut) timeKey(k string, t time.Time) { w.key(k); w.time(t) }
func (w *jsonOut) intKey(k string, n int64)      { w.key(k); w.int(n) }
func (w *jsonOut) boolKey(k string, v bool)      { w.key(k); w.bool(v) }
func (w *jsonOut) strOmit(k, v string) {
	if v != "" {
		w.strKey(k, v)
	}
}
func (w *jsonOut) timeOmit(k string, t time.Time) {
	if !t.IsZero() {
		w.timeKey(k, t)
	}
}
func (w *jsonOut) intOmit(k string, n int64) {
	if n != 0 {
		w.intKey(k, n)
	}
}
func (w *jsonOut) boolOmit(k string, v bool) {
	if v {
		w.boolKey(k, v)
	}
}

// list writes n elements, each by one, or null for a nil list.
func (w *jsonOut) list(k string, isNil bool, n int, one func(i int)) {
	w.key(k)
	if isNil {
		w.b = append(w.b, "null"...)
		return
	}
	w.open('[')
	for i := range n {
		w.elem()
		one(i)
	}
	w.close(']')
}

func (w *jsonOut) strs(k string, v []string, omitEmpty bool) {
	if omitEmpty && len(v) == 0 {
		return
	}
	w.list(k, v == nil, len(v), func(i int) { w.str(v[i]) })
}

// appendStoryJSON appends st to b as json.MarshalIndent(st, storyPrefix,
// storyIndent) writes it; false when that would have failed.
func appendStoryJSON(b []byte, st model.Story) ([]byte, bool) {
	w := &jsonOut{b: b}
	w.open('{')
	w.strKey("lock", st.Lock)
	w.strOmit("recipe", string(st.Recipe))
	w.timeKey("from", st.From)
	w.timeKey("to", st.To)
	w.timeOmit("watching_from", st.WatchingFrom)
	w.boolKey("known", st.Known)
	w.list("holds", st.Holds == nil, len(st.Holds), func(i int) { w.hold(&st.Holds[i]) })
	w.list("waits", st.Waits == nil, len(st.Waits), func(i int) { w.wait(&st.Waits[i]) })
	w.list("connection", st.Connection == nil, len(st.Connection), func(i int) { w.conn(&st.Connection[i]) })
	w.list("anomalies", st.Anomalies == nil, len(st.Anomalies), func(i int) { w.anomaly(&st.Anomalies[i]) })
	w.key("wait_times")
	w.stats(st.WaitTimes)
	w.key("hold_times")
	w.stats(st.HoldTimes)
	w.strs("partial", st.Partial, true)
	w.strs("members", st.Members, true)
	w.close('}')
	return w.b, !w.bad
}

func (w *jsonOut) hold(h *model.StoryHold) {
	w.open('{')
	w.strKey("session", h.Session)
	w.strKey("node", h.Node)
	w.timeKey("granted", h.Granted)
	w.strKey("start", h.Start)
	w.boolOmit("out_of_order", h.OutOfOrder)
	w.timeOmit("ended", h.Ended)
	w.strKey("end", h.End)
	w.intKey("held_ns", int64(h.Held))
	w.boolOmit("held_at_least", h.AtLeast)
	w.timeOmit("disconnected", h.Disconnected)
	if len(h.Frozen) > 0 {
		w.list("frozen", false, len(h.Frozen), func(i int) { w.frozen(&h.Frozen[i]) })
	}
	w.strOmit("audit", h.Audit)
	w.logEnd(&h.StoryLogEnd)
	w.close('}')
}

func (w *jsonOut) wait(v *model.StoryWait) {
	w.open('{')
	w.strKey("session", v.Session)
	w.strKey("node", v.Node)
	w.timeKey("joined", v.Joined)
	w.strKey("start", v.Start)
	w.timeOmit("ended", v.Ended)
	w.strKey("end", v.End)
	w.intKey("waited_ns", int64(v.Waited))
	w.boolOmit("waited_at_least", v.AtLeast)
	w.boolOmit("waited_at_most", v.AtMost)
	w.strOmit("audit", v.Audit)
	w.logEnd(&v.StoryLogEnd)
	w.close('}')
}

// logEnd writes e's members into the open hold or wait.
func (w *jsonOut) logEnd(e *model.StoryLogEnd) {
	w.strOmit("deleted_by", e.DeletedBy)
	w.intOmit("session_timeout_ns", int64(e.SessionTimeout))
	w.timeOmit("last_heard", e.LastHeard)
}

func (w *jsonOut) frozen(f *model.StoryFrozen) {
	w.open('{')
	w.timeKey("from", f.From)
	w.timeKey("seen", f.Seen)
	w.timeOmit("woke", f.Woke)
	w.intOmit("session_timeout_ns", int64(f.Timeout))
	w.close('}')
}

func (w *jsonOut) conn(c *model.StoryConn) {
	w.open('{')
	w.timeKey("at", c.At)
	w.strKey("what", c.What)
	w.strOmit("session", c.Session)
	w.strOmit("node", c.Node)
	w.close('}')
}

func (w *jsonOut) anomaly(a *model.StoryAnomaly) {
	w.open('{')
	w.strKey("kind", string(a.Kind))
	w.strOmit("node", a.Node)
	w.strOmit("session", a.Session)
	w.strKey("detail", a.Detail)
	w.timeKey("arose", a.Arose)
	w.timeOmit("cleared", a.Cleared)
	w.close('}')
}

func (w *jsonOut) stats(s model.StoryStats) {
	w.open('{')
	w.intKey("count", int64(s.Count))
	w.intKey("p50_ns", int64(s.P50))
	w.intKey("p90_ns", int64(s.P90))
	w.intKey("p99_ns", int64(s.P99))
	w.intKey("max_ns", int64(s.Max))
	w.close('}')
}

package recording

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// encoder turns events into lines for one part.
type encoder struct {
	t      *tables
	prevUs int64
	buf    bytes.Buffer
	// readAt is the lock line's read time as the reader gets it.
	readAt time.Time
}

func newEncoder(started time.Time) *encoder {
	return &encoder{t: newTables(), prevUs: started.UnixMicro()}
}

// encode returns ev's line, newline included; the slice is valid until
// the next call.
func (e *encoder) encode(ev zkwatch.Event, snap bool) ([]byte, error) {
	ln := line{K: kindNames[ev.Kind], Snap: snap}
	switch ln.K {
	case "":
		ln.K = strconv.Itoa(int(ev.Kind))
	case "lock":
		ln.K = "" // the commonest line says least
	}
	if !ev.At.IsZero() {
		us := ev.At.UnixMicro()
		ln.T, e.prevUs = us-e.prevUs, us
	} else {
		ln.AZ = true
	}
	if ev.Path != "" {
		if n, ok := e.t.paths[ev.Path]; ok {
			ln.L = n
		} else {
			e.t.pathList = append(e.t.pathList, ev.Path)
			e.t.paths[ev.Path] = len(e.t.pathList)
			ln.P = ev.Path
		}
	}
	if ev.Err != nil {
		ln.E = ev.Err.Error()
	}
	switch ev.Kind {
	case zkwatch.EventConn:
		ln.Conn = &connJSON{Phase: ev.Conn.Phase, Server: ev.Conn.Server, Session: ev.Conn.Session, Since: ev.Conn.Since}
	case zkwatch.EventLock:
		if ev.Lock != nil {
			e.lock(&ln, ev)
		}
	case zkwatch.EventSynced, zkwatch.EventDiscovery:
		d := ev.Discovery
		ln.Disc = &d
	case zkwatch.EventServers:
		ln.Srv = serversOf(ev)
		e.diffClients(ln.Srv)
	case zkwatch.EventAction:
		if ev.Action != nil {
			ln.A = actionOf(ev.Action)
		}
	}
	e.buf.Reset()
	if err := json.NewEncoder(&e.buf).Encode(&ln); err != nil {
		return nil, err
	}
	return e.buf.Bytes(), nil
}

func headOf(l *lockcore.Lock) lockHead {
	var entry *string
	if l.Entry != string(l.Recipe) {
		entry = &l.Entry
	}
	return lockHead{Entry: entry, Assumed: l.Assumed, Grant: l.Grant, SetAside: l.SetAside, Recipe: l.Recipe, MaxLeases: l.MaxLeases, HiddenWaiters: l.HiddenWaiters, Observers: l.Observers,
		Anomalies: l.Anomalies, Warnings: l.Warnings, WatchesSource: l.WatchesSource, WatchesGap: l.WatchesGap,
		LongHeld: l.LongHeldAfter, MaybeLongHeld: l.MaybeLongHeld, App: l.App}
}

// apply puts the head's fields into l.
func (h *lockHead) apply(l *lockcore.Lock) {
	l.Recipe, l.MaxLeases, l.HiddenWaiters, l.Observers = h.Recipe, h.MaxLeases, h.HiddenWaiters, h.Observers
	l.Anomalies, l.Warnings, l.WatchesSource, l.WatchesGap = h.Anomalies, h.Warnings, h.WatchesSource, h.WatchesGap
	l.LongHeldAfter, l.MaybeLongHeld, l.App = h.LongHeld, h.MaybeLongHeld, h.App
	l.Entry, l.Assumed, l.Grant, l.SetAside = string(h.Recipe), h.Assumed, h.Grant, h.SetAside
	if h.Entry != nil {
		l.Entry = *h.Entry
	}
}

// lock stores ev.Lock as a difference from the path's last lock.
func (e *encoder) lock(ln *line, ev zkwatch.Event) {
	l, prev := ev.Lock, e.t.last[ev.Path]
	if h := headOf(l); prev == nil || !reflect.DeepEqual(h, headOf(prev)) {
		ln.H = &h
	}
	switch {
	case l.ReadAt.IsZero():
		ln.RZ = true
	case l.ReadAt.UnixMicro() != ev.At.UnixMicro():
		d := l.ReadAt.UnixMicro() - ev.At.UnixMicro()
		ln.RA = &d
	}
	// The read time as the reader has it: to the microsecond.
	e.readAt = time.Time{}
	if !l.ReadAt.IsZero() {
		e.readAt = time.UnixMicro(l.ReadAt.UnixMicro())
	}
	// What the reader will derive, to store only what differs from it.
	want := *l
	want.Participants = slices.Clone(l.Participants)
	derive(&want)
	old := map[contender]int{}
	if prev != nil {
		for j, p := range prev.Participants {
			old[keyOf(p)] = j
		}
	}
	index := map[string]int{}
	for i, p := range l.Participants {
		if _, dup := index[p.Node]; !dup {
			index[p.Node] = i
		}
	}
	runFrom, runTo := -1, -1
	flush := func() {
		switch {
		case runFrom < 0:
		case runFrom == runTo && runTo < len(prev.Participants)-1:
			ln.PS = append(ln.PS, json.RawMessage(strconv.Itoa(runFrom)))
		case runTo == len(prev.Participants)-1:
			// A run to the end of the previous line's participants.
			ln.PS = append(ln.PS, json.RawMessage("["+strconv.Itoa(runFrom)+"]"))
		default:
			ln.PS = append(ln.PS, json.RawMessage("["+strconv.Itoa(runFrom)+","+strconv.Itoa(runTo)+"]"))
		}
		runFrom, runTo = -1, -1
	}
	for i, p := range l.Participants {
		j, seen := old[keyOf(p)]
		derived := want.Participants[i]
		if seen && sameStoredHeld(prev.Participants[j], p, e.readAt) && sameDerived(p, derived) {
			if runFrom >= 0 && j == runTo+1 {
				runTo = j
			} else {
				flush()
				runFrom, runTo = j, j
			}
			continue
		}
		flush()
		var base lockcore.Participant
		var bi *int
		if seen {
			base, bi = prev.Participants[j], &j
		} else {
			base = newBase(e.t, l, ev.At)
		}
		pt := e.part(l, ev.At, p, base, derived, i, index)
		pt.I = bi
		raw, _ := json.Marshal(pt)
		ln.PS = append(ln.PS, raw)
	}
	flush()
	e.t.remember(l)
}

// contender tells contenders apart across lines, as the event log does.
type contender struct {
	node  string
	token int64
}

func keyOf(p lockcore.Participant) contender { return contender{p.Node, p.Token} }

// sameStored reports whether a and b agree on every field a line stores.
func sameStored(a, b lockcore.Participant) bool {
	a.Position, a.Age, a.Chain, a.ChainCut, a.Watchers = 0, 0, nil, false, nil
	b.Position, b.Age, b.Chain, b.ChainCut, b.Watchers = 0, 0, nil, false, nil
	if !bytes.Equal(a.Data, b.Data) || !a.Ctime.Equal(b.Ctime) {
		return false
	}
	a.Data, b.Data, a.Ctime, b.Ctime = nil, nil, time.Time{}, time.Time{}
	return reflect.DeepEqual(a, b)
}

// sameDerived reports whether p's derived fields are what the reader
// derives.
func sameDerived(p, d lockcore.Participant) bool {
	return p.Position == d.Position && p.Age == d.Age && p.ChainCut == d.ChainCut && slices.Equal(p.Chain, d.Chain) &&
		slices.Equal(p.Watchers, d.Watchers)
}

func ptr[T any](v T) *T { return &v }

// part stores p as its differences from base; d is p as the reader
// derives it, index the lock's nodes by name.
func (e *encoder) part(l *lockcore.Lock, at time.Time, p, base, d lockcore.Participant, i int, index map[string]int) part {
	var pt part
	isNew := base.Node == ""
	if p.Node != base.Node {
		e.name(&pt, p, isNew)
	}
	if isNew {
		base.Watches = defaultWatch(l, i)
		if d, ok := e.t.data[p.Session]; ok {
			base.Data = d
		}
	}
	if p.Path != defaultPath(l.Path, p.Node, base) {
		pt.Path = ptr(p.Path)
	}
	for _, f := range partFields {
		f.enc(&pt, &p, &base)
	}
	if p.Position != i {
		pt.Pos = ptr(p.Position)
	}
	if p.Session != base.Session {
		pt.Sess = e.session(p.Session)
	}
	if eph := base.Ephemeral; base.Node == "" {
		eph = p.Session != 0
		if p.Ephemeral != eph {
			pt.Eph = ptr(p.Ephemeral)
		}
	} else if p.Ephemeral != eph {
		pt.Eph = ptr(p.Ephemeral)
	}
	if promoted(base, p) {
		base.Watches = nil
	}
	e.watches(&pt, l.Path, p.Watches, base.Watches, index)
	if p.ChainCut != d.ChainCut || !slices.Equal(p.Chain, d.Chain) {
		pt.ChSet, pt.Chain, pt.Cut = true, p.Chain, ptr(p.ChainCut)
	}
	if !slices.Equal(p.Watchers, d.Watchers) {
		if len(p.Watchers) == 0 {
			pt.WT0 = true
		}
		for _, s := range p.Watchers {
			pt.WT = append(pt.WT, e.session(s))
		}
	}
	if !p.Ctime.Equal(base.Ctime) {
		switch ns := p.Ctime.UnixNano(); {
		case p.Ctime.IsZero():
			pt.C0 = true
		case ns%int64(time.Millisecond) == 0:
			pt.C = ptr(at.UnixMilli() - p.Ctime.UnixMilli())
		default:
			pt.CN = ptr(ns)
		}
	}
	// The reader's age is its read time (to the microsecond) minus the
	// ctime; an age that is otherwise is stored.
	if p.Age != lockcore.Age(l.ReadAt, p.Ctime) {
		pt.Age = ptr(int64(p.Age))
	}
	if !bytes.Equal(p.Data, base.Data) {
		switch {
		case len(p.Data) == 0:
			pt.D0 = true
		case utf8.Valid(p.Data):
			pt.Data = ptr(string(p.Data))
		default:
			pt.DataB = p.Data
		}
	}
	if !sameHold(p.Hold, deriveHold("", base.Hold, p, e.readAt)) {
		e.hold(&pt, p, base)
	}
	return pt
}

// name stores p's name: a new participant's without its sequence suffix
// when it has one, and its hex runs packed when they pack.
func (e *encoder) name(pt *part, p lockcore.Participant, isNew bool) {
	name, cut := p.Node, false
	if isNew {
		name, cut = strings.CutSuffix(p.Node, seqSuffix(p))
		if tmpl, lens, blob, ok := packName(name); ok {
			name, pt.NodeB = tmpl, blob
			if !slices.Equal(lens, e.t.lastLens) {
				pt.NodeL = lens
			}
			e.t.lastLens = lens
		}
	}
	if cut {
		pt.NodeQ = ptr(name)
	} else {
		pt.Node = ptr(name)
	}
}

// hold stores p's hold, which the reader would not derive from its base:
// as the kind of hold that derives it, or whole.
func (e *encoder) hold(pt *part, p, base lockcore.Participant) {
	for _, k := range holdKinds {
		if sameHold(p.Hold, deriveHold(k, base.Hold, p, e.readAt)) {
			pt.HK = k
			return
		}
	}
	pt.Hold = &holdJSON{After: unixNano(p.Hold.After), By: unixNano(p.Hold.By), How: p.Hold.How,
		Min: int64(p.Hold.Min), Max: int64(p.Hold.Max)}
}

// unixNano is t in Unix nanoseconds, 0 for the zero time.
func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// defaultPath is a participant's path when a line does not give it: its
// base's, or for a new one the lock path and its node.
func defaultPath(lockPath, node string, base lockcore.Participant) string {
	if base.Node != "" {
		return base.Path
	}
	return lockPath + "/" + node
}

func code[K ~string](codes map[K]string, v K) string {
	if c, ok := codes[v]; ok {
		return c
	}
	return string(v)
}

// watches stores a watch target when it differs from base's: by the
// watched participant's number in the lock when it is one, else by name.
func (e *encoder) watches(pt *part, lockPath string, w, base *lockcore.WatchTarget, index map[string]int) {
	switch {
	case w == nil && base == nil:
		return
	case w == nil:
		pt.W0 = true
		return
	case base != nil && *w == *base:
		return
	}
	if j, ok := index[w.Node]; ok {
		pt.WI = ptr(j)
	} else {
		pt.W = ptr(w.Node)
	}
	if w.Path != lockPath+"/"+w.Node {
		pt.WP = ptr(w.Path)
	}
	if w.Children {
		pt.WC = ptr(true)
	}
}

// session refers to id by number, naming it the first time.
func (e *encoder) session(id int64) json.RawMessage {
	if id == 0 {
		return json.RawMessage("0")
	}
	if n, ok := e.t.sessions[id]; ok {
		return json.RawMessage(strconv.Itoa(n))
	}
	e.t.sessList = append(e.t.sessList, id)
	e.t.sessions[id] = len(e.t.sessList)
	return json.RawMessage(`"` + lockcore.SessionHex(id) + `"`)
}

func serversOf(ev zkwatch.Event) *serversJSON {
	s := &serversJSON{Complete: ev.ClientsComplete, Note: ev.Note, WatchesAt: ev.WatchesAt, Cost: ev.Cost,
		Asked: ev.ClientsAsked, CNote: ev.ClientsNote, For: ev.WatchesFor}
	for _, sv := range ev.Servers {
		j := serverJSON{Addr: sv.Addr, Status: sv.Status, Refused: sv.Refused, Via: sv.Via}
		if sv.Err != nil {
			j.Err = sv.Err.Error()
		}
		if sv.AdminErr != nil {
			j.AdminErr = sv.AdminErr.Error()
		}
		for w, err := range sv.Failed {
			if j.Failed == nil {
				j.Failed = map[string]string{}
			}
			j.Failed[w] = err.Error()
		}
		s.Servers = append(s.Servers, j)
	}
	for _, c := range ev.Clients {
		s.Clients = append(s.Clients, c)
	}
	sort.Slice(s.Clients, func(i, j int) bool { return s.Clients[i].Session < s.Clients[j].Session })
	return s
}

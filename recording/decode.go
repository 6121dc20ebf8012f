package recording

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// decoder turns one part's lines back into events.
type decoder struct {
	t      *tables
	prevUs int64
	// format is the part's; from 5 on, holds are derived (hold.go).
	format int
	readAt time.Time
}

func newDecoder(started time.Time, format int) *decoder {
	return &decoder{t: newTables(), prevUs: started.UnixMicro(), format: format}
}

// decode reads one event line; snap reports a snapshot line.
func (d *decoder) decode(b []byte) (ev zkwatch.Event, snap bool, err error) {
	var ln line
	if err := json.Unmarshal(b, &ln); err != nil {
		return ev, false, err
	}
	if ln.K == "" {
		ln.K = "lock"
	}
	kind, ok := kindOf[ln.K]
	if !ok {
		return ev, false, fmt.Errorf("unknown event kind %q", ln.K)
	}
	ev.Kind = kind
	if !ln.AZ {
		d.prevUs += ln.T
		ev.At = time.UnixMicro(d.prevUs)
	}
	switch {
	case ln.P != "":
		d.t.pathList = append(d.t.pathList, ln.P)
		d.t.paths[ln.P] = len(d.t.pathList)
		ev.Path = ln.P
	case ln.L > 0 && ln.L <= len(d.t.pathList):
		ev.Path = d.t.pathList[ln.L-1]
	case ln.L != 0:
		return ev, false, fmt.Errorf("path number %d names no earlier path", ln.L)
	}
	if ln.E != "" {
		ev.Err = errors.New(ln.E)
	}
	switch kind {
	case zkwatch.EventConn:
		if ln.Conn == nil {
			return ev, false, errors.New("conn line without its state")
		}
		ev.Conn = zkwatch.ConnState{Phase: ln.Conn.Phase, Server: ln.Conn.Server, Session: ln.Conn.Session, Since: ln.Conn.Since}
	case zkwatch.EventLock:
		if ev.Lock, err = d.lock(&ln, ev); err != nil {
			return ev, false, err
		}
	case zkwatch.EventSynced, zkwatch.EventDiscovery:
		if ln.Disc != nil {
			ev.Discovery = *ln.Disc
		}
	case zkwatch.EventServers:
		if ln.Srv != nil {
			fillServers(&ev, ln.Srv)
			if d.format >= 6 {
				if ev.Clients, err = d.undiffClients(ln.Srv, ln.Srv.Asked); err != nil {
					return ev, false, err
				}
			}
		}
	case zkwatch.EventAction:
		switch {
		case ln.A != nil:
			ev.Action = ln.A.action()
		case ln.N != "":
			ev.Action = oldAction(ln.N, ev.Path)
		}
	}
	return ev, ln.Snap, nil
}

func (d *decoder) lock(ln *line, ev zkwatch.Event) (*lockcore.Lock, error) {
	if ev.Path == "" {
		return nil, errors.New("lock line without a path")
	}
	prev := d.t.last[ev.Path]
	l := &lockcore.Lock{Path: ev.Path, ReadAt: ev.At}
	switch {
	case ln.H != nil:
		ln.H.apply(l)
		if l.WatchesGap == "" {
			l.Warnings, l.WatchesGap = gapOfOldWarnings(l.Warnings)
		}
	case prev != nil:
		h := headOf(prev)
		h.apply(l)
	default:
		return nil, errors.New("first line of a lock without its fields")
	}
	switch {
	case ln.RZ:
		l.ReadAt = time.Time{}
	case ln.RA != nil:
		l.ReadAt = time.UnixMicro(ev.At.UnixMicro() + *ln.RA)
	}
	d.readAt = time.Time{}
	if !l.ReadAt.IsZero() {
		d.readAt = time.UnixMicro(l.ReadAt.UnixMicro())
	}
	var olds []lockcore.Participant
	if prev != nil {
		olds = prev.Participants
	}
	parts, err := d.participants(l, ln, ev.At, olds)
	if err != nil {
		return nil, err
	}
	watchers := map[int][]int64{}
	for _, pd := range parts {
		if err := d.part(l, ev.At, pd.at, pd.pt, watchers); err != nil {
			return nil, err
		}
	}
	derive(l)
	storedDerived(l, parts, watchers)
	d.t.remember(l)
	return l, nil
}

// pending is an explicit part, decoded after the references once every
// node's name is known (a watch may name a later participant).
type pending struct {
	at int
	pt part
}

// participants puts l's participants in place from the line's parts: the
// references to olds (the path's last lock) as they were, the explicit
// parts as their bases with their names, returned to be applied.
func (d *decoder) participants(l *lockcore.Lock, ln *line, at time.Time, olds []lockcore.Participant) ([]pending, error) {
	oldAt := func(j int) (lockcore.Participant, error) {
		if j < 0 || j >= len(olds) {
			return lockcore.Participant{}, fmt.Errorf("participant %d of %d", j, len(olds))
		}
		if d.format >= 5 {
			return withCarriedHold(olds[j], d.readAt), nil
		}
		return olds[j], nil
	}
	var parts []pending
	for _, raw := range ln.PS {
		switch s := strings.TrimSpace(string(raw)); {
		case strings.HasPrefix(s, "["):
			var r []int
			if err := json.Unmarshal(raw, &r); err != nil || len(r) < 1 || len(r) > 2 {
				return nil, fmt.Errorf("participant run %s: not [from] or [from,to]", s)
			}
			if len(r) == 1 {
				r = append(r, len(olds)-1)
			}
			for j := r[0]; j <= r[1]; j++ {
				p, err := oldAt(j)
				if err != nil {
					return nil, err
				}
				l.Participants = append(l.Participants, p)
			}
		case strings.HasPrefix(s, "{"):
			var pt part
			if err := json.Unmarshal(raw, &pt); err != nil {
				return nil, fmt.Errorf("participant %s: %w", s, err)
			}
			base := newBase(d.t, l, at)
			if pt.I != nil {
				p, err := oldAt(*pt.I)
				if err != nil {
					return nil, err
				}
				base = p
			}
			if pt.NodeB != nil {
				if pt.NodeL == nil {
					pt.NodeL = d.t.lastLens
				}
				d.t.lastLens = pt.NodeL
				if err := unpack(&pt); err != nil {
					return nil, err
				}
			}
			switch {
			case pt.Node != nil:
				base.Node = *pt.Node
			case pt.NodeQ != nil:
				q := base
				if pt.HasSeq != nil {
					q.HasSeq = *pt.HasSeq
				}
				if pt.Seq != nil {
					q.Seq += *pt.Seq
				}
				base.Node = *pt.NodeQ + seqSuffix(q)
			}
			parts = append(parts, pending{len(l.Participants), pt})
			l.Participants = append(l.Participants, base)
		default:
			j, err := strconv.Atoi(s)
			if err != nil {
				return nil, fmt.Errorf("participant %s: not a number, run or object", s)
			}
			p, err := oldAt(j)
			if err != nil {
				return nil, err
			}
			l.Participants = append(l.Participants, p)
		}
	}
	return parts, nil
}

// storedDerived puts back, over what derive gave, the derived fields a
// line stored because they were not what derive gives.
func storedDerived(l *lockcore.Lock, parts []pending, watchers map[int][]int64) {
	for _, pd := range parts {
		p, pt := &l.Participants[pd.at], pd.pt
		if pt.Pos != nil {
			p.Position = *pt.Pos
		}
		if pt.Age != nil {
			p.Age = time.Duration(*pt.Age)
		}
		if pt.ChSet {
			p.Chain, p.ChainCut = pt.Chain, pt.Cut != nil && *pt.Cut
		}
		switch ws, ok := watchers[pd.at]; {
		case pt.WT0:
			p.Watchers = nil
		case ok:
			p.Watchers = ws
		}
	}
}

// part applies pt to participant i, whose base (and node) is in place.
func (d *decoder) part(l *lockcore.Lock, at time.Time, i int, pt part, watchers map[int][]int64) error {
	p := &l.Participants[i]
	isNew := pt.I == nil
	base := *p
	if pt.Path != nil {
		p.Path = *pt.Path
	} else if isNew {
		p.Path = l.Path + "/" + p.Node
	}
	for _, f := range partFields {
		f.dec(&pt, p)
	}
	if pt.Sess != nil {
		s, err := d.session(pt.Sess)
		if err != nil {
			return err
		}
		p.Session = s
	}
	if isNew {
		p.Ephemeral = p.Session != 0 // the base's, unless stored
		p.Watches = defaultWatch(l, i)
		if d, ok := d.t.data[p.Session]; ok {
			p.Data = d
		}
	}
	if pt.Eph != nil {
		p.Ephemeral = *pt.Eph
	}
	if d.format >= 5 && !isNew && promoted(base, *p) {
		p.Watches = nil
	}
	switch {
	case pt.W0:
		p.Watches = nil
	case pt.W != nil || pt.WI != nil:
		w, err := watchOf(l, pt)
		if err != nil {
			return err
		}
		p.Watches = w
	}
	if len(pt.WT) > 0 {
		ws := make([]int64, len(pt.WT))
		for k, raw := range pt.WT {
			s, err := d.session(raw)
			if err != nil {
				return err
			}
			ws[k] = s
		}
		watchers[i] = ws
	}
	switch {
	case pt.C0:
		p.Ctime = time.Time{}
	case pt.C != nil:
		p.Ctime = time.UnixMilli(at.UnixMilli() - *pt.C)
	case pt.CN != nil:
		p.Ctime = time.Unix(0, *pt.CN)
	}
	switch {
	case pt.D0:
		p.Data = nil
	case pt.Data != nil:
		p.Data = []byte(*pt.Data)
	case pt.DataB != nil:
		p.Data = pt.DataB
	}
	switch h := pt.Hold; {
	case h != nil:
		p.Hold = lockcore.Hold{After: fromUnixNano(h.After), By: fromUnixNano(h.By), How: h.How,
			Min: time.Duration(h.Min), Max: time.Duration(h.Max)}
	case d.format >= 5:
		// p.Hold is still its base's.
		p.Hold = deriveHold(pt.HK, p.Hold, *p, d.readAt)
	}
	return nil
}

// watchOf is the watch a part names, by the node's name or its number
// in l.
func watchOf(l *lockcore.Lock, pt part) (*lockcore.WatchTarget, error) {
	w := &lockcore.WatchTarget{}
	if pt.WI != nil {
		if *pt.WI < 0 || *pt.WI >= len(l.Participants) {
			return nil, fmt.Errorf("watch of participant %d of %d", *pt.WI, len(l.Participants))
		}
		w.Node = l.Participants[*pt.WI].Node
	} else {
		w.Node = *pt.W
	}
	w.Path = l.Path + "/" + w.Node
	if pt.WP != nil {
		w.Path = *pt.WP
	}
	w.Children = pt.WC != nil && *pt.WC
	return w, nil
}

// fromUnixNano undoes unixNano.
func fromUnixNano(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

func decodeCode[K ~string](of map[string]K, s string) K {
	if v, ok := of[s]; ok {
		return v
	}
	return K(s)
}

// session resolves a session reference: a number, or "0x…" naming the
// next one.
func (d *decoder) session(raw json.RawMessage) (int64, error) {
	s := strings.TrimSpace(string(raw))
	if strings.HasPrefix(s, `"`) {
		var hex string
		if err := json.Unmarshal(raw, &hex); err != nil {
			return 0, err
		}
		u, err := strconv.ParseUint(strings.TrimPrefix(hex, "0x"), 16, 64)
		if err != nil {
			return 0, fmt.Errorf("session %q: %w", hex, err)
		}
		id := int64(u)
		d.t.sessList = append(d.t.sessList, id)
		d.t.sessions[id] = len(d.t.sessList)
		return id, nil
	}
	n, err := strconv.Atoi(s)
	switch {
	case err != nil:
		return 0, fmt.Errorf("session %s: not a number or a name", s)
	case n == 0:
		return 0, nil
	case n < 0 || n > len(d.t.sessList):
		return 0, fmt.Errorf("session number %d names no earlier session", n)
	}
	return d.t.sessList[n-1], nil
}

func fillServers(ev *zkwatch.Event, s *serversJSON) {
	ev.ClientsComplete, ev.Note, ev.WatchesAt, ev.Cost = s.Complete, s.Note, s.WatchesAt, s.Cost
	ev.ClientsAsked, ev.ClientsNote, ev.WatchesFor = s.Asked, s.CNote, s.For
	for _, j := range s.Servers {
		sv := zkwatch.ServerInfo{Addr: j.Addr, Status: j.Status, Refused: j.Refused, Via: j.Via}
		if j.Err != "" {
			sv.Err = errors.New(j.Err)
		}
		if j.AdminErr != "" {
			sv.AdminErr = errors.New(j.AdminErr)
		}
		for w, msg := range j.Failed {
			if sv.Failed == nil {
				sv.Failed = map[string]error{}
			}
			sv.Failed[w] = errors.New(msg)
		}
		ev.Servers = append(ev.Servers, sv)
	}
	if s.Clients != nil {
		ev.Clients = make(map[int64]zkwatch.ClientInfo, len(s.Clients))
		for _, c := range s.Clients {
			ev.Clients[c.Session] = c
		}
	}
}

// unpack restores a packed name in place.
func unpack(pt *part) error {
	tmpl := pt.Node
	if tmpl == nil {
		tmpl = pt.NodeQ
	}
	if tmpl == nil {
		return errBadPack
	}
	name, err := unpackName(*tmpl, pt.NodeL, pt.NodeB)
	*tmpl = name
	return err
}

// oldGapSuffix ends the warning that recordings made before
// Lock.WatchesGap existed carried in its place.
const oldGapSuffix = ", so watch targets follow the recipe's rule"

// gapOfOldWarnings takes the watch table's gap out of an older
// recording's warnings, so that it reads as a new one does.
func gapOfOldWarnings(warnings []string) (rest []string, gap string) {
	for _, w := range warnings {
		if i := strings.Index(w, oldGapSuffix); i > 0 && strings.HasPrefix(w, "the servers' watch table ") && gap == "" {
			gap = w[:i]
			continue
		}
		rest = append(rest, w)
	}
	return rest, gap
}

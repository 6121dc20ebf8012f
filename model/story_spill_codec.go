package model

import (
	"encoding/binary"
	"slices"
	"time"
)

// A folded span's encoding: its flags, its place as a change from the
// previous record's, its session and node unless they are the previous
// record's (a wait's hold's are its own), its times as changes from the
// previous time written, its ender by number, and what its entries said
// beyond it where they did. Only what decodes to exactly what it was is
// encoded (see encodable): the rest is kept whole.

// Time kinds.
const (
	tkZero  byte = iota // time.Time{}
	tkLocal             // time.Unix(0, ns), in time.Local
	tkUTC               // time.Unix(0, ns).UTC()
)

// timeOf is the time of kind k at ns.
func timeOf(k byte, ns int64) time.Time {
	switch k {
	case tkLocal:
		return time.Unix(0, ns)
	case tkUTC:
		return time.Unix(0, ns).UTC()
	}
	return time.Time{}
}

// timeKind is how t is encoded, if it can be, so that it decodes to the
// same time.Time, zone and all (a monotonic reading or another zone
// cannot be).
func timeKind(t time.Time) (byte, bool) {
	if t == (time.Time{}) {
		return tkZero, true
	}
	ns := t.UnixNano()
	switch {
	case timeOf(tkLocal, ns) == t:
		return tkLocal, true
	case timeOf(tkUTC, ns) == t:
		return tkUTC, true
	}
	return 0, false
}

func encodableTime(t time.Time) bool {
	_, ok := timeKind(t)
	return ok
}

// encodable says whether f decodes to exactly what it is.
func (fs *folds) encodable(f foldedSpan) bool {
	sp := f.span
	if !encodableTime(sp.From) || !encodableTime(sp.To) || !encodableTime(sp.Disconnected) {
		return false
	}
	if x := f.extra; x != nil {
		if !encodableTime(x.logEnd.LastHeard) {
			return false
		}
		for _, z := range x.frozen {
			if !encodableTime(z.From) || !encodableTime(z.Seen) || !encodableTime(z.Woke) {
				return false
			}
		}
	}
	return true
}

// appendTime encodes t, which must be encodable.
func (c *foldCoder) appendTime(buf []byte, t time.Time) []byte {
	k, _ := timeKind(t)
	buf = append(buf, k)
	if k == tkZero {
		return buf
	}
	ns := t.UnixNano()
	buf = binary.AppendVarint(buf, ns-c.ns)
	c.ns = ns
	return buf
}

// time decodes a time appendTime encoded.
func (c *foldCoder) time(data []byte) (time.Time, []byte, error) {
	if len(data) == 0 || data[0] > tkUTC {
		return time.Time{}, nil, errBadFold
	}
	k := data[0]
	if k == tkZero {
		return time.Time{}, data[1:], nil
	}
	d, rest, err := varint(data[1:])
	if err != nil {
		return time.Time{}, nil, err
	}
	c.ns += d
	return timeOf(k, c.ns), rest, nil
}

func appendString(buf []byte, s string) []byte {
	return append(binary.AppendUvarint(buf, uint64(len(s))), s...)
}

func readString(data []byte) (string, []byte, error) {
	n, rest, err := uvarint(data)
	if err != nil || n > uint64(len(rest)) {
		return "", nil, errBadFold
	}
	return string(rest[:n]), rest[n:], nil
}

func uvarint(data []byte) (uint64, []byte, error) {
	v, n := binary.Uvarint(data)
	if n <= 0 {
		return 0, nil, errBadFold
	}
	return v, data[n:], nil
}

func varint(data []byte) (int64, []byte, error) {
	v, n := binary.Varint(data)
	if n <= 0 {
		return 0, nil, errBadFold
	}
	return v, data[n:], nil
}

// appendSpan encodes f, which must be encodable.
func (c *foldCoder) appendSpan(buf []byte, f foldedSpan) []byte {
	sp := f.span
	var fl uint64
	for _, b := range [...]struct {
		bit uint64
		on  bool
	}{{flHold, sp.Hold}, {flBefore, sp.Before}, {flGranted, sp.Granted}, {flOutOfOrder, sp.OutOfOrder}, {flSeen, sp.Seen},
		{flReconstructed, sp.Reconstructed}, {flSameNode, sp.Node == c.node}, {flSameSession, sp.Session == c.session},
		{flExtra, f.extra != nil}} {
		if b.on {
			fl |= b.bit
		}
	}
	buf = binary.AppendUvarint(buf, fl)
	buf = binary.AppendVarint(buf, int64(f.seq-c.seq))
	c.seq = f.seq
	if fl&flSameSession == 0 {
		buf = binary.AppendVarint(buf, sp.Session)
		c.session = sp.Session
	}
	if fl&flSameNode == 0 {
		buf = appendString(buf, sp.Node)
		c.node = sp.Node
	}
	buf = c.appendTime(buf, sp.From)
	buf = c.appendTime(buf, sp.To)
	buf = c.appendTime(buf, sp.Disconnected)
	if i := slices.Index(enders, sp.EndedBy); i >= 0 {
		buf = append(buf, byte(i))
	} else {
		buf = appendString(append(buf, endLiteral), string(sp.EndedBy))
	}
	x := f.extra
	if x == nil {
		return buf
	}
	buf = appendString(buf, x.audit)
	buf = binary.AppendUvarint(buf, uint64(len(x.frozen)))
	for _, z := range x.frozen {
		buf = c.appendTime(buf, z.From)
		buf = c.appendTime(buf, z.Seen)
		buf = c.appendTime(buf, z.Woke)
		buf = binary.AppendVarint(buf, int64(z.Timeout))
	}
	buf = appendString(buf, x.logEnd.DeletedBy)
	buf = binary.AppendVarint(buf, int64(x.logEnd.SessionTimeout))
	return c.appendTime(buf, x.logEnd.LastHeard)
}

// span decodes a span appendSpan encoded.
func (c *foldCoder) span(data []byte) (foldedSpan, []byte, error) {
	var f foldedSpan
	fl, data, err := uvarint(data)
	if err != nil {
		return f, nil, err
	}
	sp := &f.span
	sp.Hold, sp.Before, sp.Granted, sp.OutOfOrder = fl&flHold != 0, fl&flBefore != 0, fl&flGranted != 0, fl&flOutOfOrder != 0
	sp.Seen, sp.Reconstructed = fl&flSeen != 0, fl&flReconstructed != 0
	d, data, err := varint(data)
	if err != nil {
		return f, nil, err
	}
	c.seq += int(d)
	f.seq = c.seq
	if fl&flSameSession == 0 {
		if c.session, data, err = varint(data); err != nil {
			return f, nil, err
		}
	}
	sp.Session = c.session
	if fl&flSameNode == 0 {
		if c.node, data, err = readString(data); err != nil {
			return f, nil, err
		}
	}
	sp.Node = c.node
	for _, t := range []*time.Time{&sp.From, &sp.To, &sp.Disconnected} {
		if *t, data, err = c.time(data); err != nil {
			return f, nil, err
		}
	}
	switch {
	case len(data) == 0:
		return f, nil, errBadFold
	case data[0] == endLiteral:
		var e string
		if e, data, err = readString(data[1:]); err != nil {
			return f, nil, err
		}
		sp.EndedBy = Ender(e)
	case int(data[0]) < len(enders):
		sp.EndedBy, data = enders[data[0]], data[1:]
	default:
		return f, nil, errBadFold
	}
	if fl&flExtra == 0 {
		return f, data, nil
	}
	return c.extra(f, data)
}

// extra decodes what appendSpan encoded of f's extra.
func (c *foldCoder) extra(f foldedSpan, data []byte) (foldedSpan, []byte, error) {
	x := &spanExtra{}
	f.extra = x
	var err error
	if x.audit, data, err = readString(data); err != nil {
		return f, nil, err
	}
	n, data, err := uvarint(data)
	if err != nil || n > uint64(len(data)) {
		return f, nil, errBadFold
	}
	for range n {
		var z StoryFrozen
		for _, t := range []*time.Time{&z.From, &z.Seen, &z.Woke} {
			if *t, data, err = c.time(data); err != nil {
				return f, nil, err
			}
		}
		var d int64
		if d, data, err = varint(data); err != nil {
			return f, nil, err
		}
		z.Timeout = time.Duration(d)
		x.frozen = append(x.frozen, z)
	}
	if x.logEnd.DeletedBy, data, err = readString(data); err != nil {
		return f, nil, err
	}
	var d int64
	if d, data, err = varint(data); err != nil {
		return f, nil, err
	}
	x.logEnd.SessionTimeout = time.Duration(d)
	x.logEnd.LastHeard, data, err = c.time(data)
	return f, data, err
}

// timed decodes a wait's or hold's length foldTime encoded.
func (c *foldCoder) timed(data []byte) (timedSpan, []byte, error) {
	var t timedSpan
	var err error
	if t.at, data, err = c.time(data); err != nil {
		return t, nil, err
	}
	var d int64
	d, data, err = varint(data)
	t.d = time.Duration(d)
	return t, data, err
}

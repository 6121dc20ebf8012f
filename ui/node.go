package ui

import (
	"errors"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// nodePane shows one participant's node as read on demand: full Stat, ACL
// and data. Data is read up to zkwatch.NodeDataLimit and shown as escaped
// text, or as a hex dump when it is not UTF-8 (or when asked). The data is
// virtualized: a frame draws only the lines on screen, so a large node
// costs no more than a small one.
type nodePane struct {
	env *env
	// read reads a node, giving up after timeout; nil where reading
	// nodes is not available.
	read    NodeReader
	timeout time.Duration
	reads   int // reads started, to drop answers that come too late

	w, h    int
	part    lockcore.Participant
	reading bool
	detail  *zkwatch.NodeDetail
	err     error
	hex     bool // hex dump even for text data

	head   []string // painted lines above the data
	text   []string // the data's escaped, wrapped lines, in text mode
	dump   bool     // data shown as a hex dump
	per    int      // bytes per hex line
	scroll scroller
}

func newNodePane(e *env, read NodeReader, timeout time.Duration) nodePane {
	return nodePane{env: e, read: read, timeout: timeout}
}

// open shows participant q and starts reading its node.
func (p *nodePane) open(q lockcore.Participant) tea.Cmd {
	*p = nodePane{env: p.env, read: p.read, timeout: p.timeout, reads: p.reads, w: p.w, h: p.h, part: q}
	return p.reread()
}

// reread starts reading the node shown again; what was shown stays
// meanwhile.
func (p *nodePane) reread() tea.Cmd {
	p.reading = p.read != nil
	p.relayout()
	if p.read == nil {
		return nil
	}
	p.reads++
	return readNode(p.read, p.reads, p.part.Path, p.timeout)
}

// loaded takes a read's answer, and returns the error to tell the
// operator of. An answer to a read since superseded (another node opened,
// or this one read again) is dropped. After an error the last good
// reading, if any, stays on screen under the error.
func (p *nodePane) loaded(msg nodeReadMsg) error {
	if msg.id != p.reads {
		return nil
	}
	p.reading = false
	p.err = msg.err
	if msg.err == nil {
		d := msg.detail
		p.detail = &d
	}
	p.relayout()
	return msg.err
}

func (p *nodePane) setSize(w, h int) {
	p.w, p.h = w, h
	p.relayout()
}

// refresh redraws what depends on the state: the owner's client address.
func (p *nodePane) refresh(int) { p.relayout() }

func (p *nodePane) total() int {
	if p.dump {
		return len(p.head) + (len(p.detail.Data)+p.per-1)/p.per
	}
	return len(p.head) + len(p.text)
}

func (p nodePane) update(msg tea.Msg) (nodePane, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.MouseMsg:
		p.scroll.wheel(msg, p.total(), p.h)
	case tea.KeyMsg:
		k := p.env.keys
		switch {
		case p.scroll.move(*k, msg, p.total(), p.h):
		case key.Matches(msg, k.Hex):
			p.hex = !p.hex
			p.relayout()
		case key.Matches(msg, k.Reread) && p.read != nil:
			cmd := p.reread()
			return p, cmd
		}
	}
	return p, nil
}

func (p *nodePane) summary() string {
	return "node · " + model.ShortNode(p.part.Node)
}

func (p nodePane) view() string {
	end := min(p.scroll.top+p.h, p.total())
	lines := make([]string, 0, p.h)
	for i := p.scroll.top; i < end; i++ {
		switch {
		case i < len(p.head):
			lines = append(lines, p.head[i])
		case p.dump:
			lines = append(lines, " "+hexLine(p.detail.Data, i-len(p.head), p.per))
		default:
			lines = append(lines, " "+p.text[i-len(p.head)])
		}
	}
	return strings.Join(lines, "\n")
}

// relayout works out the header and the data's lines for the width.
func (p *nodePane) relayout() {
	st := p.env.st
	b := &infoLines{st: st, w: max(p.w, 20)}
	b.kv("path", model.Printable(p.part.Path), st.strong)
	switch {
	case p.reading:
		b.text("reading the node…", st.muted, "")
	case errors.Is(p.err, zk.ErrNoAuth):
		b.text("✗ the node's ACL denies this session its data and ACL: "+model.Printable(p.err.Error()), st.warning, "")
	case p.err != nil:
		b.text("✗ could not read the node: "+model.Printable(p.err.Error()), st.danger, "")
	case p.read == nil:
		b.text("reading nodes is not available here", st.muted, "")
	}
	p.text, p.dump = nil, false
	if p.detail == nil {
		if p.part.Session != 0 || p.part.Token != 0 || p.part.Pending {
			p.lockFacts(b) // a contender's; a node browsed to has none
		}
		p.head = b.lines
		p.scroll.fix(p.total(), p.h)
		return
	}
	d := p.detail
	p.statLines(b, d.Stat)
	p.aclLines(b, d.ACL)
	text, isText := model.DataText(d.Data, d.Truncated())
	p.dump = !isText || p.hex
	b.kv("data", dataSummary(d, isText, p.dump), st.muted)
	b.lines = append(b.lines, st.muted.s(strings.Repeat("─", max(p.w, 0))))
	p.head = b.lines
	switch {
	case p.dump:
		p.per = 16
		if p.w < 80 {
			p.per = 8
		}
		if p.w < 44 {
			p.per = 4
		}
	default:
		for _, line := range strings.Split(text, "\n") {
			p.text = append(p.text, hardWrap(model.Printable(line), max(p.w-2, 1))...)
		}
	}
	p.scroll.fix(p.total(), p.h)
}

// lockFacts shows what the lock's own read knew of the node, until (or
// unless) the node itself is read.
func (p *nodePane) lockFacts(b *infoLines) {
	q := p.part
	b.text("from the lock's last read:", p.env.st.muted, "")
	if q.Pending {
		b.kv("czxid", model.NotRead+": the node is listed, its stat and data are not read", p.env.st.warning)
		b.kv("owner", model.SessionText(q.Session)+" (client "+p.env.client(q.Session).Short()+"), from the servers' dump", paint{})
		return
	}
	b.kv("czxid", token(q.Token)+" · the fencing token", paint{})
	b.kv("ctime", p.env.stamp(q.Ctime), paint{})
	b.kv("owner", model.SessionText(q.Session)+" (client "+p.env.client(q.Session).Short()+")", paint{})
	if q.DataDenied {
		b.kv("data", "unreadable: the node's ACL denies this session its data", p.env.st.warning)
	} else if d := dataText(q.Data, q.DataTruncated); d != "" {
		b.kv("data", d, paint{})
	}
}

func (p *nodePane) statLines(b *infoLines, s zk.Stat) {
	owner := "none (persistent)"
	if s.EphemeralOwner != 0 {
		owner = model.SessionText(s.EphemeralOwner) + " (client " + p.env.client(s.EphemeralOwner).Short() + ")"
	}
	pairs := [][2][2]string{
		{{"czxid", hex(s.Czxid)}, {"mzxid", hex(s.Mzxid)}},
		{{"pzxid", hex(s.Pzxid)}, {"version", itoa(int(s.Version))}},
		{{"cversion", itoa(int(s.Cversion))}, {"aversion", itoa(int(s.Aversion))}},
		{{"dataLength", itoa(int(s.DataLength))}, {"numChildren", itoa(int(s.NumChildren))}},
	}
	const lw, vw = 15, 20
	for _, pr := range pairs {
		if p.w >= 2*(lw+vw)+2 {
			b.lines = append(b.lines, " "+b.st.muted.s(fit(pr[0][0], lw))+fit(pr[0][1], vw)+" "+
				b.st.muted.s(fit(pr[1][0], lw))+pr[1][1])
			continue
		}
		for _, kv := range pr {
			b.lines = append(b.lines, " "+b.st.muted.s(fit(kv[0], lw))+kv[1])
		}
	}
	for _, t := range [][2]string{
		{"ctime", p.when(s.Ctime)}, {"mtime", p.when(s.Mtime)}, {"ephemeralOwner", owner}} {
		for i, part := range wrap(t[1], max(b.w-lw-2, 8), "") {
			label := ""
			if i == 0 {
				label = t[0]
			}
			b.lines = append(b.lines, " "+b.st.muted.s(fit(label, lw))+part)
		}
	}
}

// when formats a Stat time (ms since the epoch, server clock).
func (p *nodePane) when(ms int64) string {
	t := time.UnixMilli(ms)
	return p.env.stamp(t) + " (" + p.env.ago(t) + ")"
}

func (p *nodePane) aclLines(b *infoLines, acl []zk.ACL) {
	if len(acl) == 0 {
		b.kv("ACL", "none", b.st.muted)
	}
	for i, a := range acl {
		label := ""
		if i == 0 {
			label = "ACL"
		}
		b.kv(label, model.Printable(a.Scheme+":"+a.ID)+"  "+perms(a.Perms), paint{})
	}
}

// perms spells ACL permissions as ZooKeeper's CLI does: cdrwa.
func perms(p int32) string {
	var b strings.Builder
	for _, x := range []struct {
		bit    int32
		letter byte
	}{{zk.PermCreate, 'c'}, {zk.PermDelete, 'd'}, {zk.PermRead, 'r'}, {zk.PermWrite, 'w'}, {zk.PermAdmin, 'a'}} {
		if p&x.bit != 0 {
			b.WriteByte(x.letter)
		}
	}
	if b.Len() == 0 {
		return "(no permissions)"
	}
	return b.String()
}

func dataSummary(d *zkwatch.NodeDetail, isText, dump bool) string {
	if d.DataLen == 0 {
		return "empty"
	}
	s := itoa(d.DataLen) + " bytes"
	if d.Truncated() {
		s += ", first " + itoa(len(d.Data)) + " shown"
	}
	switch {
	case !isText:
		s += " · binary, as hex"
	case dump:
		s += " · text, as hex (x: as text)"
	default:
		s += " · text, escaped (x: as hex)"
	}
	return s
}

// hexLine is line i of a hex dump of data, per bytes a line, in the
// style of hexdump -C: offset, bytes, and the printable ASCII ones.
func hexLine(data []byte, i, per int) string {
	const digits = "0123456789abcdef"
	off := i * per
	chunk := data[off:min(off+per, len(data))]
	b := make([]byte, 0, 12+per*4+4)
	for shift := 28; shift >= 0; shift -= 4 {
		b = append(b, digits[(off>>shift)&0xf])
	}
	b = append(b, ' ', ' ')
	for j := 0; j < per; j++ {
		if j == per/2 && per >= 16 {
			b = append(b, ' ')
		}
		if j < len(chunk) {
			b = append(b, digits[chunk[j]>>4], digits[chunk[j]&0xf], ' ')
		} else {
			b = append(b, ' ', ' ', ' ')
		}
	}
	b = append(b, '|')
	for _, c := range chunk {
		if c < 0x20 || c > 0x7e {
			c = '.'
		}
		b = append(b, c)
	}
	return string(append(b, '|'))
}

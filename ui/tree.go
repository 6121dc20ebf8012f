package ui

import (
	"cmp"
	"context"
	"errors"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// ChildrenReader lists a node's children (sorted, at most a limit of
// them) and how many it has, as zkwatch.Conn.ReadChildren does. It must
// give up when ctx ends.
type ChildrenReader func(ctx context.Context, path string) (names []string, total int, err error)

// treePane browses ZooKeeper's tree, read-only, for when the lock is not
// where one thinks: a node's children, read on demand, each marked when
// it is a lock the watcher knows; i shows a child's data, Stat and ACL on
// the node screen, with its escaping and size limits.
type treePane struct {
	list
	// read lists a node's children, giving up after timeout; nil where
	// reading the tree is not available.
	read    ChildrenReader
	timeout time.Duration

	path    string
	names   []string
	total   int // children the node has; more than len(names) past the limit
	err     error
	reading bool
	id      int    // the read shown, to drop answers that come too late
	sel     string // the child to select once listed
}

func newTreePane(e *env, read ChildrenReader, timeout time.Duration) treePane {
	return treePane{list: list{env: e}, read: read, timeout: timeout, path: "/"}
}

func (p *treePane) setSize(w, h int) { p.resize(w, h-1, len(p.names)) }
func (p *treePane) refresh(int)      {}

// childrenReadMsg is the answer to a children read.
type childrenReadMsg struct {
	id    int
	path  string
	names []string
	total int
	err   error
}

// readChildren lists path's children with read, giving up after timeout.
func readChildren(read ChildrenReader, id int, p string, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		names, total, err := read(ctx, p)
		return childrenReadMsg{id: id, path: p, names: names, total: total, err: err}
	}
}

// browse starts listing node's children, with the child named sel under
// the cursor once listed ("" for the first).
func (p *treePane) browse(node, sel string) tea.Cmd {
	p.id++
	p.path, p.err, p.reading = path.Clean(node), nil, p.read != nil
	p.names, p.total, p.cur, p.sel = nil, 0, cursor{}, sel
	if p.read == nil {
		return nil
	}
	return readChildren(p.read, p.id, p.path, p.timeout)
}

// listed takes a children read's answer; one for a node no longer shown
// is dropped. A lock's children, or children that all carry a sequence,
// are shown in queue order.
func (p *treePane) listed(msg childrenReadMsg) {
	if msg.id != p.id {
		return
	}
	p.reading, p.err, p.names, p.total = false, msg.err, msg.names, msg.total
	if p.env.state.Locks[msg.path] != nil || allSequential(p.names) {
		p.names = bySequence(p.names)
	}
	p.seek(p.sel, len(p.names), func(i int) string { return p.names[i] })
}

func (p treePane) update(msg tea.Msg) (treePane, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.MouseMsg:
		p.cur.wheel(msg, len(p.names), p.listHeight())
	case tea.KeyMsg:
		k := p.env.keys
		if key.Matches(msg, k.Parent) {
			if p.path == "/" {
				return p, nil
			}
			cmd := p.browse(path.Dir(p.path), path.Base(p.path))
			return p, cmd
		}
		if p.cur.move(*k, msg, len(p.names), p.listHeight()) || p.cur.idx >= len(p.names) {
			return p, nil
		}
		child := path.Join(p.path, p.names[p.cur.idx])
		switch {
		case key.Matches(msg, k.Open):
			cmd := p.browse(child, "")
			return p, cmd
		case key.Matches(msg, k.NodeInfo):
			return p, openNode(lockcore.Participant{Path: child, Node: p.names[p.cur.idx]})
		}
	}
	return p, nil
}

func (p *treePane) summary() string {
	return "tree · " + model.Printable(p.path)
}

func (p treePane) view() string {
	st := p.env.st
	head := " " + st.strong.s(model.Printable(p.path))
	switch {
	case p.reading:
		head += st.muted.s(" · reading…")
	case errors.Is(p.err, zk.ErrNoAuth):
		head += " " + st.warning.s("✗ the node's ACL denies this session its children")
	case p.err != nil:
		head += " " + st.danger.s("✗ "+model.Printable(p.err.Error()))
	case p.read == nil:
		head += st.muted.s(" · reading the tree is not available here")
	default:
		n := count(p.total, "child", "children")
		if p.total > len(p.names) {
			n += ", the first " + itoa(len(p.names)) + " shown"
		}
		head += st.muted.s(" · " + n + " · read-only")
	}
	lines := []string{clip(head, p.w)}
	cols := []column{{title: "NAME", width: 20, flex: true}, {title: "LOCK", width: 40, most: 60, min: 10, drop: 1}}
	end := min(p.cur.first+p.listHeight(), len(p.names))
	cells := make([][]cell, 0, end-p.cur.first)
	for i := p.cur.first; i < end; i++ {
		cells = append(cells, p.cells(p.names[i]))
	}
	cols = sizeToContent(cols, cells...)
	widths := layout(cols, p.w-2)
	lines = append(lines, "  "+headerRow(cols, widths, st.header))
	if !p.reading && p.err == nil && p.read != nil && len(p.names) == 0 {
		lines = append(lines, "  "+st.muted.s("no children"))
	}
	for i, c := range cells {
		sel := p.cur.first+i == p.cur.idx
		lines = append(lines, marker(st, sel)+row(cols, widths, c, sel, st.selected))
	}
	return strings.Join(lines, "\n")
}

// cells are a child's cells: its name, escaped, and what the watcher
// knows of it as a lock.
func (p *treePane) cells(name string) []cell {
	st := p.env.st
	c := []cell{{text: model.Printable(name)}, {}}
	if l, ok := p.env.state.Locks[path.Join(p.path, name)]; ok {
		c[1] = cell{text: string(l.Recipe) + " · " + itoa(l.Holders()) + " holding · " + itoa(l.Waiters()) + " waiting",
			p: st.accent}
	}
	return c
}

// allSequential reports whether every name ends in a sequence suffix.
func allSequential(names []string) bool {
	for _, n := range names {
		if !lockcore.ParseName(n).HasSeq {
			return false
		}
	}
	return len(names) > 0
}

// bySequence orders a lock's children as its queue: by sequence (Curator's
// names start with a random GUID, so by name they come in no order), names
// without one last, by name.
func bySequence(names []string) []string {
	out := slices.Clone(names)
	slices.SortStableFunc(out, func(a, b string) int {
		pa, pb := lockcore.ParseName(a), lockcore.ParseName(b)
		switch {
		case pa.HasSeq && pb.HasSeq:
			return cmp.Or(cmp.Compare(pa.Seq, pb.Seq), strings.Compare(a, b))
		case pa.HasSeq:
			return -1
		case pb.HasSeq:
			return 1
		}
		return strings.Compare(a, b)
	})
	return out
}

package txnlog

import (
	"compress/gzip"
	"errors"
	"fmt"
	"hash/adler32"
	"io"
	"os"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch/jute"
)

// ErrSnapshot: a snapshot could not be read whole (cut short, its
// checksum wrong, compressed in a way not read here).
var ErrSnapshot = errors.New("txnlog: snapshot not readable")

// readSnapshot reads a snapshot whole into a new tree: its sessions and
// their timeouts, and every node. A snapshot cut short or whose checksum
// does not match (one being written) is an error, and no tree.
func readSnapshot(f file, keeps func(string, int64) bool) (*tree, error) {
	fh, err := os.Open(f.path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var src io.Reader = fh
	size := fileSize(f.path)
	switch f.compressed {
	case ".gz":
		gz, err := gzip.NewReader(src)
		if err != nil {
			return nil, fmt.Errorf("%s: %w: %w", f.path, ErrSnapshot, err)
		}
		src, size = gz, 1<<40
	case ".snappy":
		sn, err := newSnappyStream(src)
		if err != nil {
			return nil, fmt.Errorf("%s: %w: %w", f.path, ErrSnapshot, err)
		}
		src, size = sn, 1<<40
	}
	r := jute.NewStreamReader(src, size, adler32.New())
	h := jute.ReadFileHeader(r)
	if r.Err() != nil || h.Magic != jute.SnapMagic || h.Version != jute.FileVersion {
		return nil, fmt.Errorf("%s: %w (a snapshot of another version, or not a snapshot: magic %#x, version %d)", f.path, ErrNotLog, uint32(h.Magic), h.Version)
	}
	t := newTree()
	t.zxid, t.keeps = f.zxid, keeps
	if keeps == nil {
		// About a hundred bytes a node: the map sized once, not grown
		// twenty times over a million nodes.
		t.nodes = make(map[string]*znode, min(size/100, 1<<24))
	}
	n := r.Count(12)
	for i := 0; i < n && r.Err() == nil; i++ {
		id, timeout := r.Long(), r.Int()
		t.session(id).timeout = time.Duration(timeout) * time.Millisecond
	}
	// The ACL cache: read past it, nodes keep no ACL here.
	n = r.Count(12)
	for i := 0; i < n && r.Err() == nil; i++ {
		r.Long()
		jute.ReadACLs(r)
	}
	for r.Err() == nil {
		p := r.String()
		if p == "/" || r.Err() != nil {
			break
		}
		dn := jute.ReadDataNode(r)
		if p == "" {
			p = "/"
		}
		st := dn.Stat
		if p != "/" && (!t.kept(p, st.EphemeralOwner) || t.nodes[lockcore.ParentPath(p)] == nil) {
			// Not held (see nodeFilter), or below a node not held.
			continue
		}
		z := &znode{data: keepOwned(dn.Data), stat: zk.Stat{Czxid: st.Czxid, Mzxid: st.Mzxid,
			Ctime: st.Ctime, Mtime: st.Mtime, Version: st.Version, Cversion: st.Cversion, Aversion: st.Aversion,
			EphemeralOwner: st.EphemeralOwner, Pzxid: st.Pzxid, DataLength: int32(len(dn.Data))}}
		if old := t.nodes[p]; old != nil {
			z.kids = old.kids
		}
		t.nodes[p] = z
		// A snapshot lists a parent before its children.
		if p != "/" {
			t.adopt(p, z)
		}
	}
	want := int64(r.Sum())
	got := r.Long()
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w: cut short at byte %d (being written, or copied while it was): %w", f.path, ErrSnapshot, r.Offset(), err)
	}
	if got != want {
		return nil, fmt.Errorf("%s: %w: its checksum does not match", f.path, ErrSnapshot)
	}
	for _, z := range t.nodes {
		z.stat.NumChildren = int32(len(z.kids))
	}
	return t, nil
}

// adopt links a node read to its parent, and to its owner session.
func (t *tree) adopt(p string, z *znode) {
	if parent := t.nodes[lockcore.ParentPath(p)]; parent != nil {
		if parent.kids == nil {
			parent.kids = map[string]*znode{}
		}
		parent.kids[lockcore.BaseName(p)] = z
	}
	if owner := z.stat.EphemeralOwner; jute.IsSessionOwner(owner) {
		s := t.session(owner)
		if s.ephemerals == nil {
			s.ephemerals = map[string]struct{}{}
		}
		s.ephemerals[p] = struct{}{}
	}
}

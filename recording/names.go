package recording

import (
	"encoding/hex"
	"errors"
	"strings"
)

// Contender names carry random ids in hex (Curator's and go-zookeeper's
// GUIDs, kazoo's UUIDs): the bulk of a new contender's line. Stored as
// bytes they take half the room they take as text, even compressed.

// minHexRun is the shortest run of hex digits that is packed.
const minHexRun = 4

// packName takes each run of at least minHexRun lowercase hex digits of
// even length out of name, leaving a NUL in its place; lens are the runs'
// lengths in bytes, blob their bytes in order. ok is false when nothing
// was packed (or name holds a NUL, which ZooKeeper names never do).
func packName(name string) (tmpl string, lens []int, blob []byte, ok bool) {
	if strings.IndexByte(name, 0) >= 0 {
		return "", nil, nil, false
	}
	var b strings.Builder
	for i := 0; i < len(name); {
		j := i
		for j < len(name) && isLowerHex(name[j]) {
			j++
		}
		if n := j - i; n >= minHexRun && n%2 == 0 {
			raw, _ := hex.DecodeString(name[i:j])
			blob = append(blob, raw...)
			lens = append(lens, len(raw))
			b.WriteByte(0)
			i = j
			continue
		}
		if j == i {
			j++
		}
		b.WriteString(name[i:j])
		i = j
	}
	if len(lens) == 0 {
		return "", nil, nil, false
	}
	return b.String(), lens, blob, true
}

var errBadPack = errors.New("packed name does not match its runs")

// unpackName reverses packName.
func unpackName(tmpl string, lens []int, blob []byte) (string, error) {
	var b strings.Builder
	k := 0
	for i := 0; i < len(tmpl); i++ {
		if tmpl[i] != 0 {
			b.WriteByte(tmpl[i])
			continue
		}
		if k >= len(lens) || lens[k] < 0 || lens[k] > len(blob) {
			return "", errBadPack
		}
		b.WriteString(hex.EncodeToString(blob[:lens[k]]))
		blob = blob[lens[k]:]
		k++
	}
	if k != len(lens) || len(blob) != 0 {
		return "", errBadPack
	}
	return b.String(), nil
}

func isLowerHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' }

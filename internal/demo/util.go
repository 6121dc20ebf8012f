package demo

import (
	"crypto/rand"
	"encoding/hex"

	"github.com/go-zookeeper/zk"
)

const flagEphemeralSequential = zk.FlagEphemeral | zk.FlagSequence

var openACL = zk.WorldACL(zk.PermAll)

// newUUID returns a random (version 4) UUID, as Curator's protected names
// carry.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand does not fail on supported platforms
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// newHex returns 32 random hex digits, as kazoo's identifiers are.
func newHex() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

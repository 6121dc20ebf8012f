package loopback

import (
	"bytes"
	"io"
	"net"
	"sync"
	"testing"

	"github.com/zklocks/zklocks/zkwatch/jute"
)

// AddWatchRefusal is how a RefusingMember refuses addWatch.
type AddWatchRefusal int

const (
	// AnswerError answers addWatch with an error (UNIMPLEMENTED), as a
	// server or proxy that does not allow it.
	AnswerError AddWatchRefusal = iota
	// CloseConnection closes the client's connection at addWatch, as a
	// ZooKeeper older than 3.6 does at a request it does not know.
	CloseConnection
)

// RefusingMember serves a member on loopback that passes every client
// request to the real server at target, frame by frame, but refuses
// addWatch as refusal says. With refuseWords, it refuses every
// four-letter word as an empty whitelist does (so that a client cannot
// learn the release), else it passes them on too. It returns the
// member's address; it stops when the test ends.
func RefusingMember(t testing.TB, target string, refusal AddWatchRefusal, refuseWords bool) string {
	t.Helper()
	return Serve(t, func(c net.Conn) {
		var head [4]byte
		if _, err := io.ReadFull(c, head[:]); err != nil {
			return
		}
		if isWord(head[:]) && refuseWords {
			io.WriteString(c, string(head[:])+" is not executed because it is not in the whitelist.\n")
			return
		}
		s, err := net.Dial("tcp", target)
		if err != nil {
			return
		}
		defer s.Close()
		if isWord(head[:]) {
			s.Write(head[:])
			go io.Copy(s, c)
			io.Copy(c, s)
			return
		}
		relayRefusing(c, s, head, refusal)
	})
}

// isWord reports whether a connection's first four bytes are a
// four-letter word rather than a frame's length.
func isWord(b []byte) bool {
	for _, ch := range b {
		if ch < 'a' || ch > 'z' {
			return false
		}
	}
	return true
}

// relayRefusing relays a client connection c to the server s frame by
// frame; head is the length of c's first frame, already read.
func relayRefusing(c, s net.Conn, head [4]byte, refusal AddWatchRefusal) {
	var wmu sync.Mutex // frames to the client: the server's and our answers
	go func() {
		defer c.Close()
		for {
			f, err := jute.ReadFrame(s, jute.MaxFrame)
			if err != nil {
				return
			}
			wmu.Lock()
			err = jute.WriteFrame(c, f)
			wmu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	// The first frame is the connect request, which has no header.
	connect, err := jute.ReadFrame(io.MultiReader(bytes.NewReader(head[:]), c), jute.MaxFrame)
	if err != nil || jute.WriteFrame(s, connect) != nil {
		return
	}
	for {
		f, err := jute.ReadFrame(c, jute.MaxFrame)
		if err != nil {
			return
		}
		r := jute.NewReader(f)
		h := jute.RequestHeader{Xid: r.Int(), OpCode: r.Int()}
		if r.Err() == nil && h.OpCode == jute.OpAddWatch {
			if refusal == CloseConnection {
				return
			}
			var w jute.Writer
			w.Int(h.Xid)
			w.Long(0)
			w.Int(jute.ErrUnimplemented)
			wmu.Lock()
			jute.WriteFrame(c, w.Bytes())
			wmu.Unlock()
			continue
		}
		if err := jute.WriteFrame(s, f); err != nil {
			return
		}
	}
}

package words

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/zklocks/zklocks/internal/testkit/loopback"
)

// turnHeld reports whether an ask of member holds its turn now.
func (c *Costs) turnHeld(member string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.turns[member]) > 0
}

// TestAskWholeReleasesTheMember checks that an answer asked Whole is
// handed to its reader only once it has arrived, the member's turn given
// back before the reader parses it, by four-letter word and by the
// AdminServer, and that an answer not asked Whole is parsed as it comes,
// the turn held meanwhile; either way the reader gets the whole answer and
// the ask is counted with its size.
func TestAskWholeReleasesTheMember(t *testing.T) {
	const reply = "SessionTracker dump:\nephemeral nodes dump:\nSessions with Ephemerals (0):\n"
	const own = `{"client_port":2181,"server_id":3,"command":"configuration","error":null}`
	ctx := context.Background()
	for _, whole := range []bool{false, true} {
		c := NewCosts()
		addr := loopback.Serve(t, replyWith(reply))
		var held bool
		var got string
		via, wordErr, _ := Ways{Costs: c}.Ask(ctx, addr, "dump", Reader{Whole: whole, Text: func(r *bufio.Reader) error {
			held = c.turnHeld(addr)
			b, err := io.ReadAll(r)
			got = string(b)
			return err
		}}, false, nil)
		if wordErr != nil || via != ViaWord || got != reply {
			t.Fatalf("whole=%v: dump by four-letter word = %q via %q, %v; want %q", whole, got, via, wordErr, reply)
		}
		if held != !whole {
			t.Errorf("whole=%v: the member's turn held while the word's answer was parsed: %v", whole, held)
		}
		if cost := c.Snapshot(); len(cost) != 1 || cost[0].Bytes != int64(len(reply)) {
			t.Errorf("whole=%v: the ask counted as %+v, want one of %d bytes", whole, cost, len(reply))
		}

		c = NewCosts()
		a, _ := fakeAdmin(t, own, 200)
		const member = "127.0.0.1:2181"
		held = false
		keys := 0
		via, _, adminErr := Ways{Admin: a, Costs: c}.Ask(ctx, member, "cons", Reader{Whole: whole, JSON: func(key string, dec *json.Decoder) (bool, error) {
			held = held || c.turnHeld(member)
			keys++
			return false, nil
		}}, true, nil)
		if adminErr != nil || via != ViaAdmin || keys != 2 {
			t.Fatalf("whole=%v: cons by the AdminServer via %q, %v, %d keys read; want 2 (connections, secure_connections)", whole, via, adminErr, keys)
		}
		if held != !whole {
			t.Errorf("whole=%v: the member's turn held while the AdminServer's answer was parsed: %v", whole, held)
		}
	}
}

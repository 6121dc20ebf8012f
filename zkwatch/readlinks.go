package zkwatch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// Links is what one reading of every member's connections (cons) says of
// some sessions: see [Conn.ReadLinks].
type Links struct {
	// Links holds, for each session asked about, whether it is connected.
	Links map[int64]lockcore.Link
	// Clients are the connected sessions, as in Enrichment.Clients.
	Clients map[int64]ClientInfo
	// Complete is true when every member answered cons.
	Complete bool
	// Note says why Complete is false, or why a disconnected session's
	// expiry is unknown.
	Note string
	// Servers are the members as they answered, with the way each word
	// came (ServerInfo.Via) and why the other way was not taken.
	Servers []ServerInfo
	// Fix, when not empty, says once what to change on the servers for
	// zklocks to see clients at all (see NoWayFix).
	Fix string
}

// ReadLinks asks every ensemble member (see Members) for srvr and cons,
// once each, and says of each session in owners whether a member holds a
// connection for it. The owners must have been read before ReadLinks is
// called: a session that is in no member's list is then connected nowhere,
// as long as every member answered (otherwise it is LinkUnknown).
//
// A disconnected session's expiry comes from the leader's dump (or a
// standalone server's; the four-letter word, or the AdminServer's dump,
// whose expiry map only the leader fills), which schedules every
// session's expiry: ReadLinks
// asks it only when some session is disconnected, reads only its session
// tracker, and measures the schedule against this connection's own
// session, whose timeout cons gives, so that neither clock skew nor the
// server's time zone counts. Where that cannot be done, the expiry is
// unknown and Note says why.
//
// Only evidence judges: a session missing from one complete answer may
// have been between members, or handshaking again after a dropped
// connection, when its member answered. It is judged disconnected only if
// a second complete answer, asked [SecondLook] later, misses it too;
// listed by either, it is connected.
func (c *Conn) ReadLinks(ctx context.Context, owners []int64, costs *Costs) Links {
	ensemble := c.Members(ctx)
	e := NewEnricher(ensemble.Servers, 0)
	e.Missing, e.TLS, e.Mode, e.Costs, e.Admin = ensemble.Missing, c.TLS(), WatchesRecipe, costs, c.admin
	out, gone, en := judgeLinks(ctx, owners, e.Poll, SecondLook)
	if len(gone) == 0 {
		return out
	}
	left, err := c.expiries(ctx, en, gone, costs)
	if err != nil {
		out.Note = joinNotes(out.Note, "when disconnected sessions expire is unknown: "+err.Error())
		return out
	}
	for s, d := range left {
		k := out.Links[s]
		k.ExpiresWithin, k.ExpirySource = d, "leader"
		out.Links[s] = k
	}
	return out
}

// SecondLook is how long after a complete answer that misses an owner
// session the members are asked again, before the session is judged
// disconnected: longer than a live client takes to reconnect to another
// member, short enough for a one-shot check.
const SecondLook = 2 * time.Second

// judgeLinks links owners from poll's answers: once, and, when a complete
// answer misses some owner, again after wait (see ReadLinks). It returns
// the links, the sessions judged disconnected and the last answer.
func judgeLinks(ctx context.Context, owners []int64, poll func(context.Context) Enrichment, wait time.Duration) (Links, []int64, Enrichment) {
	en := poll(ctx)
	var missing []int64
	for _, s := range owners {
		if _, listed := en.Clients[s]; s != 0 && !listed && en.Complete {
			missing = append(missing, s)
		}
	}
	first := en
	if len(missing) > 0 {
		select {
		case <-ctx.Done():
		case <-time.After(wait):
			en = poll(ctx)
		}
	}
	clients := en.Clients
	if len(missing) > 0 && len(first.Clients) > 0 {
		// A session the first answer listed was connected then, whatever
		// the second says: only missing sessions are judged again.
		clients = make(map[int64]ClientInfo, len(first.Clients)+len(en.Clients))
		maps.Copy(clients, first.Clients)
		maps.Copy(clients, en.Clients)
	}
	out := Links{Links: map[int64]lockcore.Link{}, Clients: clients, Complete: en.Complete, Note: en.ClientsNote,
		Servers: en.Servers, Fix: NoWayFix(en.Servers)}
	var gone []int64
	for _, s := range owners {
		_, listed := clients[s]
		switch {
		case s == 0:
		case listed:
			out.Links[s] = clients[s].Link()
		case !first.Complete || !en.Complete:
			out.Links[s] = lockcore.Link{State: lockcore.LinkUnknown}
		default:
			out.Links[s] = lockcore.Link{State: lockcore.LinkDisconnected, At: first.At}
			gone = append(gone, s)
		}
	}
	return out, gone, en
}

// expiries asks the leader's dump when each of sessions expires, as a
// time left from now.
func (c *Conn) expiries(ctx context.Context, en Enrichment, sessions []int64, costs *Costs) (map[int64]time.Duration, error) {
	leader := ""
	for _, s := range en.Servers {
		if s.Status.Mode == "leader" || s.Status.Mode == "standalone" {
			leader = s.Addr
		}
	}
	own := c.SessionID()
	ownInfo, ok := en.Clients[own]
	switch {
	case leader == "":
		return nil, errors.New("no member answered srvr as the leader")
	case !ok || ownInfo.Timeout <= 0:
		return nil, errors.New("cons did not give this connection's own session timeout")
	}
	// A request touches this session, so that the leader schedules its
	// expiry a full timeout from about now.
	wordCtx, cancel := context.WithTimeout(ctx, defaultWordTimeout)
	if _, err := call(wordCtx, func() (bool, error) { ok, _, err := c.zk.Exists("/"); return ok, err }); err != nil {
		cancel()
		return nil, err
	}
	defer cancel()
	at := map[int64]time.Time{}
	_, err := c.ways(costs).askEither(wordCtx, leader, "dump", reader{
		text: func(r *bufio.Reader) error {
			var err error
			at, err = ParseSessionExpiry(r)
			return err
		},
		json: adminExpiry(at),
	})
	if err != nil && !errors.Is(err, errSectionRead) {
		return nil, fmt.Errorf("dump from %s: %w", leader, err)
	}
	ref, ok := at[own]
	if !ok {
		return nil, fmt.Errorf("the dump of %s does not schedule this connection's own session", leader)
	}
	now := ref.Add(-ownInfo.Timeout)
	left := map[int64]time.Duration{}
	for _, s := range sessions {
		if t, ok := at[s]; ok {
			left[s] = max(t.Sub(now), 0)
		}
	}
	return left, nil
}

// errSectionRead stops reading a dump once its session tracker is read.
var errSectionRead = errors.New("zkwatch: dump: session tracker read")

// javaDate is how Java's Date.toString prints a time, which the dump uses.
const javaDate = "Mon Jan 02 15:04:05 MST 2006"

// ParseSessionExpiry reads the session tracker at the head of a dump
// reply, as the leader (or a standalone server) prints it:
//
//	SessionTracker dump:
//	Session Sets (2)/(1):
//	0 expire at Mon Nov 23 10:16:47 UTC 2026:
//	1 expire at Mon Nov 23 10:16:48 UTC 2026:
//		0x100008b69500000
//	ephemeral nodes dump:
//
// and returns when each session is due to expire, to the second, on the
// server's clock and in its time zone (an abbreviation Go may not know:
// compare these times only with each other). A follower's tracker lists
// sessions without expiry ("Global Sessions(1):" then "0x…\t6000ms"), so
// its map is empty. It stops at the ephemeral nodes with errSectionRead,
// or returns nil at the end of the reply.
func ParseSessionExpiry(r *bufio.Reader) (map[int64]time.Time, error) {
	out := map[int64]time.Time{}
	var bucket time.Time
	for n := 1; ; n++ {
		line, err := r.ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return out, fmt.Errorf("zkwatch: dump line %d: %w", n, err)
		}
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(line, "ephemeral nodes dump") {
			return out, errSectionRead
		}
		if _, when, ok := strings.Cut(line, " expire at "); ok && !strings.HasPrefix(line, "\t") {
			bucket = time.Time{}
			if t, perr := time.Parse(javaDate, strings.TrimSuffix(when, ":")); perr == nil {
				bucket = t
			}
		} else if s, ok := strings.CutPrefix(line, "\t0x"); ok && !bucket.IsZero() {
			if id, perr := strconv.ParseUint(s, 16, 64); perr == nil {
				out[int64(id)] = bucket
			}
		} else if !strings.HasPrefix(line, "\t") {
			bucket = time.Time{}
		}
		if errors.Is(err, io.EOF) {
			return out, nil
		}
	}
}

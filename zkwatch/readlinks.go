package zkwatch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// Links is what one reading of every member's connections (cons) says of
// some sessions: see [Conn.ReadLinks].
type Links struct {
	// Links holds, for each session asked about, whether it is connected.
	Links lockcore.SessionLinks
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
func (c *Conn) ReadLinks(ctx context.Context, owners []int64, costs *words.Costs) Links {
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
	out := Links{Links: lockcore.SessionLinks{}, Clients: clients, Complete: en.Complete, Note: en.ClientsNote,
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
func (c *Conn) expiries(ctx context.Context, en Enrichment, sessions []int64, costs *words.Costs) (map[int64]time.Duration, error) {
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
	_, err := c.ways(costs).AskEither(wordCtx, leader, "dump", words.Reader{
		Text: func(r *bufio.Reader) error {
			var err error
			at, err = words.ParseSessionExpiry(r)
			return err
		},
		JSON: words.AdminExpiry(at),
	})
	if err != nil && !errors.Is(err, words.ErrTrackerRead) {
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

package hub

import (
	"context"
	"errors"
	"sort"
	"sync"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// noticeBuffer is how many notices a session may have unread before
// newer ones are dropped for it: a session never holds up the board.
const noticeBuffer = 32

// errStopped refuses a request on a cluster whose watcher has stopped.
// The words are zklocks serve's, whose sessions say them.
var errStopped = errors.New("serve: the cluster's watcher stopped")

// Board is one cluster's two-person rule: the operators'
// force-releases, revokes and fences wait here as requests until another
// person approves (and so runs) or rejects them, or they expire. Every
// session on the cluster hears of each request and of what became of it.
// It implements model.Gate.
type Board struct {
	within time.Duration

	mu      sync.Mutex
	last    int
	pending map[int]*pendingRequest
	subs    map[chan model.ApprovalNotice]struct{}
	closed  bool
}

type pendingRequest struct {
	req   model.Request
	run   func(ctx context.Context, approver lockcore.Operator) error
	timer *time.Timer
}

func newBoard(within time.Duration) *Board {
	return &Board{within: within, pending: map[int]*pendingRequest{}, subs: map[chan model.ApprovalNotice]struct{}{}}
}

// Submit files r, to run when approved, and tells every session.
func (b *Board) Submit(r model.Request, run func(ctx context.Context, approver lockcore.Operator) error) (model.Request, error) {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return model.Request{}, errStopped
	}
	b.last++
	r.ID, r.Expires = b.last, r.At.Add(b.within)
	p := &pendingRequest{req: r, run: run}
	b.pending[r.ID] = p
	p.timer = time.AfterFunc(time.Until(r.Expires), func() { b.expire(r.ID) })
	b.mu.Unlock()
	b.tell(model.ApprovalNotice{Request: r, Decision: model.DecisionRequested})
	return r, nil
}

// take removes a pending request, if it is still there.
func (b *Board) take(id int) (*pendingRequest, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p, ok := b.pending[id]
	if ok {
		delete(b.pending, id)
		p.timer.Stop()
	}
	return p, ok
}

func (b *Board) expire(id int) {
	if p, ok := b.take(id); ok {
		b.tell(model.ApprovalNotice{Request: p.req, Decision: model.DecisionExpired})
	}
}

// Decide approves (running the action, version-checked against what the
// requester saw) or rejects a pending request, as by; the requester
// cannot decide their own (model.ErrSamePerson), and the request then
// stays.
func (b *Board) Decide(ctx context.Context, id int, by lockcore.Operator, approve bool) (model.ApprovalNotice, error) {
	b.mu.Lock()
	p, ok := b.pending[id]
	if ok && model.SamePerson(p.req.By, by) {
		b.mu.Unlock()
		return model.ApprovalNotice{}, model.ErrSamePerson
	}
	b.mu.Unlock()
	if p, ok = b.take(id); !ok {
		return model.ApprovalNotice{}, model.ErrNoRequest
	}
	n := model.ApprovalNotice{Request: p.req, Decision: model.DecisionRejected, By: &by}
	if approve {
		n.Decision, n.Err = model.DecisionApproved, p.run(ctx, by)
	}
	b.tell(n)
	return n, nil
}

// Pending are the requests waiting, oldest first.
func (b *Board) Pending() []model.Request {
	b.mu.Lock()
	defer b.mu.Unlock()
	rs := make([]model.Request, 0, len(b.pending))
	for _, p := range b.pending {
		rs = append(rs, p.req)
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].ID < rs[j].ID })
	return rs
}

// Subscribe returns a channel of every notice from now on, and the
// function that ends it.
func (b *Board) Subscribe() (<-chan model.ApprovalNotice, func()) {
	ch := make(chan model.ApprovalNotice, noticeBuffer)
	b.mu.Lock()
	b.subs[ch] = struct{}{}
	b.mu.Unlock()
	return ch, func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		if _, ok := b.subs[ch]; ok {
			delete(b.subs, ch)
			close(ch)
		}
	}
}

func (b *Board) tell(n model.ApprovalNotice) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for ch := range b.subs {
		select {
		case ch <- n:
		default:
		}
	}
}

// close withdraws every pending request (the cluster's watcher and
// connection stop, which their runs would act through).
func (b *Board) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	for id, p := range b.pending {
		p.timer.Stop()
		delete(b.pending, id)
	}
}

package ui

import (
	"context"
	"errors"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/model"
)

// The two-person rule (zklocks serve, a context with approve: 2): an
// operator's force-release, revoke or fence is a request (model.Gate);
// every session on the cluster is told at once in its status line, and
// :approve shows another operator the oldest request not their own, which
// y approves (and so runs) and n rejects.

// Approvals is a cluster's board of requests as one session sees it.
type Approvals interface {
	// Pending are the requests waiting, oldest first.
	Pending() []model.Request
	// Notices receives each request made and what became of it; it
	// closes when the session leaves the cluster.
	Notices() <-chan model.ApprovalNotice
	// Mine reports whether r is this session's operator's own.
	Mine(r model.Request) bool
	// Decide approves (running the action) or rejects request id as this
	// session's operator.
	Decide(ctx context.Context, id int, approve bool) (model.ApprovalNotice, error)
}

// approvalNoticeMsg is one notice from the board.
type approvalNoticeMsg struct {
	notice model.ApprovalNotice
	closed bool
}

func waitForNotice(ap Approvals) tea.Cmd {
	if ap == nil {
		return nil
	}
	ch := ap.Notices()
	return func() tea.Msg {
		n, ok := <-ch
		return approvalNoticeMsg{notice: n, closed: !ok}
	}
}

// handleNotice says a notice in the status line, replacing what it said.
func (a *App) handleNotice(msg approvalNoticeMsg) tea.Cmd {
	if msg.closed {
		return nil
	}
	// The requester was told as the request was filed (actionDoneMsg); an
	// approved action that went through is told to everyone as the
	// shared picture takes it in (tellOperated), naming both.
	n := msg.notice
	switch {
	case n.Decision == model.DecisionRequested && a.opt.Approvals.Mine(n.Request):
	case n.Decision == model.DecisionApproved && n.Err == nil:
	default:
		text, bad := n.Text()
		a.say(text, bad)
	}
	return waitForNotice(a.opt.Approvals)
}

// approveDecidedMsg says how a decision went.
type approveDecidedMsg struct {
	notice model.ApprovalNotice
	err    error
}

// decideTimeout bounds a decision: an approval runs the action.
const decideTimeout = 15 * time.Second

func decide(ap Approvals, id int, approve bool) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), decideTimeout)
		defer cancel()
		n, err := ap.Decide(ctx, id, approve)
		return approveDecidedMsg{notice: n, err: err}
	}
}

func (a *App) approveDecided(msg approveDecidedMsg) {
	if msg.err != nil {
		a.say("approve: "+model.Printable(msg.err.Error()), true)
		return
	}
	text, bad := msg.notice.Text()
	a.say(text, bad)
}

// openApproveMsg asks to show the approval dialog, once the command bar
// that asked for it has closed.
type openApproveMsg struct{}

func openApprove() tea.Msg { return openApproveMsg{} }

// openApprove shows the oldest pending request that is not the
// operator's own.
func (a *App) openApprove() {
	ap := a.opt.Approvals
	if ap == nil {
		a.say("approve: nothing needs a second person here (a context with approve: 2, under zklocks serve)", true)
		return
	}
	if !a.op.guardWrite("approve") {
		return
	}
	pending := ap.Pending()
	var theirs []model.Request
	for _, r := range pending {
		if !ap.Mine(r) {
			theirs = append(theirs, r)
		}
	}
	switch {
	case len(theirs) == 0 && len(pending) > 0:
		a.say("approve: only your own requests are pending: another operator approves them", true)
		return
	case len(theirs) == 0:
		a.say("approve: no request is pending", false)
		return
	}
	a.open(&approveDialog{req: theirs[0], more: len(theirs) - 1, ap: ap, now: a.env.now()})
}

// approveDialog shows one request: y approves and runs it, n rejects it,
// any other key closes it undecided.
type approveDialog struct {
	req  model.Request
	more int
	ap   Approvals
	now  time.Time
}

func (d *approveDialog) update(k keyMap, msg tea.KeyMsg) (bool, tea.Cmd) {
	switch {
	case key.Matches(msg, k.Yes):
		return true, decide(d.ap, d.req.ID, true)
	case key.Matches(msg, k.Reject):
		return true, decide(d.ap, d.req.ID, false)
	}
	return true, nil
}

func (d *approveDialog) view(st *styles, w int) string {
	r := d.req
	c := confirmDialog{title: "Approve " + model.OperatorLabel(r.By) + "'s " + string(r.Kind) + "?"}
	for _, e := range r.Expects {
		c.lines = append(c.lines, model.Printable(e.Path)+" · token "+model.TokenHex(e.Czxid)+
			" · session "+model.SessionText(e.EphemeralOwner)+" · version "+itoa(int(e.Version)))
	}
	c.lines = append(c.lines, "Requested "+model.Duration(d.now.Sub(r.At))+" ago from "+model.Printable(r.By.Host)+
		"; expires at "+r.Expires.Format("15:04:05")+".",
		"Runs only on the nodes as "+model.Printable(r.By.User)+" saw them (same czxid, owner and version). "+
			"Audited with both your names.")
	if d.more > 0 {
		c.lines = append(c.lines, count(d.more, "more request waits", "more requests wait")+": :approve again after this one.")
	}
	c.footer = "y approves and runs it · n rejects it · any other key (enter, esc) leaves it pending"
	return c.view(st, w)
}

// errAwaiting tells an action filed as a request from one that failed.
func errAwaiting(err error) bool { return errors.Is(err, model.ErrAwaitingApproval) }

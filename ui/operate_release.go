package ui

import (
	"context"
	"errors"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/model"

	"github.com/zklocks/zklocks/lockclient"
)

// Giving our own lock back: r while the UI runs, ReleaseOwn once it has
// ended.

// releaseOwn gives up our wait, or releases our lock.
func (op *operator) releaseOwn() tea.Cmd {
	if !op.canAct("release") {
		return nil
	}
	o := op.env.own
	switch {
	case o == nil:
		op.host.say("nothing to release: zklocks holds and waits on no lock of its own (a acquires one)", false)
		return nil
	case o.ending:
		op.host.say("already giving back "+o.path, false)
		return nil
	}
	o.ending = true
	if o.held == nil {
		o.cancel() // the acquisition returns, deleting our node
		op.host.say("giving up the wait on "+o.path+"…", false)
		return nil
	}
	close(o.stop)
	op.host.say("releasing "+o.path+"…", false)
	return releaseHeld(o.id, o.held, o.path)
}

// ownReleasedMsg: our held lock was given back; path is empty for a lock
// granted after it was no longer wanted.
type ownReleasedMsg struct {
	id    int
	path  string
	token int64
	err   error
}

func releaseHeld(id int, h *lockclient.Held, path string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
		defer cancel()
		return ownReleasedMsg{id: id, path: path, token: h.Token, err: h.Release(ctx)}
	}
}

func (op *operator) ownReleased(msg ownReleasedMsg) {
	if o := op.env.own; o != nil && o.id == msg.id {
		op.env.own = nil
		o.cancel()
	}
	if msg.path == "" {
		return
	}
	switch {
	case msg.err == nil:
		op.host.say("released "+msg.path+" (token "+hex(msg.token)+")", false)
	case errors.Is(msg.err, lockclient.ErrLockLost):
		op.host.say("gave back "+msg.path+", which had been lost: "+msg.err.Error(), true)
	default:
		op.host.say("release "+msg.path+" failed: "+msg.err.Error()+" (our node goes when this session ends)", true)
	}
}

// ReleaseOwn gives back the lock the operator took from the UI, if any:
// it gives up a wait, or releases a held lock, within ctx. Call it once the
// program has ended, before the connection closes: quitting does not wait
// for ZooKeeper. It says what it did, for the terminal ("" for nothing).
func (a *App) ReleaseOwn(ctx context.Context) (string, error) { return a.op.releaseOwnAtExit(ctx) }

func (op *operator) releaseOwnAtExit(ctx context.Context) (string, error) {
	o := op.env.own
	if o == nil {
		return "", nil
	}
	op.env.own = nil
	o.cancel()
	if o.held == nil {
		select {
		case <-o.returned:
		case <-ctx.Done():
			return "", fmt.Errorf("giving up the wait on %s: %w", model.Printable(o.path), ctx.Err())
		}
		select {
		case o.held = <-o.granted: // granted as the program ended
		default:
			return "gave up waiting on " + model.Printable(o.path), nil
		}
	} else if !o.ending {
		close(o.stop)
	}
	if err := o.held.Release(ctx); err != nil {
		return "", fmt.Errorf("releasing %s: %w", model.Printable(o.path), err)
	}
	return "released " + model.Printable(o.path) + " (token " + token(o.held.Token) + ")", nil
}

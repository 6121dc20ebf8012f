package ui

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/zkwatch"
)

// fixtureEvents are the watcher's events that make the fixture's locks:
// connected, every lock read, the members' answer, synced.
func fixtureEvents() []zkwatch.Event {
	evs := []zkwatch.Event{{Kind: zkwatch.EventConn, At: t0.Add(-time.Hour),
		Conn: zkwatch.ConnState{Phase: zkwatch.Connected, Server: "10.0.0.1:2181", Session: sid(1), Since: t0.Add(-time.Hour)}}}
	for _, l := range fixtureLocks() {
		evs = append(evs, zkwatch.Event{Kind: zkwatch.EventLock, At: t0.Add(-time.Minute), Path: l.Path, Lock: l})
	}
	clients := map[int64]zkwatch.ClientInfo{}
	for _, i := range []int{2, 3, 4, 5, 6, 7, 20, 21, 22, 31, 32, 40, 41, 50, 71} {
		clients[sid(i)] = zkwatch.ClientInfo{Session: sid(i), Server: "10.0.0.1:2181", Client: fmt.Sprintf("10.0.%d.%d:5%04d", i/10, i%10, i)}
	}
	return append(evs,
		zkwatch.Event{Kind: zkwatch.EventServers, At: t0.Add(-time.Minute), ClientsAsked: t0.Add(-time.Minute), ClientsComplete: true,
			Clients: clients, Servers: []zkwatch.ServerInfo{{Addr: "10.0.0.1:2181"}, {Addr: "10.0.0.2:2181"}, {Addr: "10.0.0.3:2181"}}},
		zkwatch.Event{Kind: zkwatch.EventSynced, At: t0.Add(-time.Minute), Discovery: zkwatch.Discovery{Complete: true}})
}

// TestGoldenReplayForceRelease: the operator force-releases /locks/billing's
// holder; everything the live UI got, its action among the watcher's
// events as the program merges them, is recorded; the recording replayed
// to that moment shows the same Sessions screen, with the holder followed
// as force-released, and the same lock detail.
func TestGoldenReplayForceRelease(t *testing.T) {
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "rec.zklocks")
			rec, err := recording.Create(path, recording.Options{Header: recording.Header{Server: "10.0.0.1:2181"},
				Now: func() time.Time { return t0.Add(-time.Hour) }})
			if err != nil {
				t.Fatal(err)
			}
			write := func(evs []zkwatch.Event) []zkwatch.Event {
				for _, ev := range evs {
					if err := rec.Write(ev); err != nil {
						t.Fatal(err)
					}
				}
				return evs
			}
			start := model.NewState()
			for _, ev := range write(fixtureEvents()) {
				start.Apply(ev)
			}

			var told []lockcore.Action
			live := newTestApp(t, sz.w, sz.h, func(o *Options) {
				o.State = start
				o.Actions = &model.Actions{ZK: newRecordingZK(start), User: "sre", Host: "jump-1", Via: model.ViaUI,
					Server: o.Server, Now: func() time.Time { return t0 }, Told: func(a lockcore.Action) { told = append(told, a) }}
			})
			send(live, openLockMsg{path: "/locks/billing"})
			press(live, "D", "y")
			if len(told) != 1 || told[0].Kind != lockcore.ActionForceRelease {
				t.Fatalf("told %+v", told)
			}
			// The action, merged ahead of the watcher's next reading, which
			// no longer has the holder.
			next := newTree("/locks/billing")
			next.kid(curator("lock-", 21, 18), sid(21), 12*time.Minute, "10.0.1.21")
			next.kid(curator("lock-", 22, 19), sid(22), 3*time.Minute+5*time.Second, "10.0.1.22")
			after := next.analyze(nil, longHeld)
			send(live, watchEventsMsg{events: write([]zkwatch.Event{model.ActionEvent(told[0]),
				{Kind: zkwatch.EventLock, At: t0, Path: after.Path, Lock: after}})})
			if err := rec.Close(); err != nil {
				t.Fatal(err)
			}

			r, err := recording.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			tape := model.NewTape(r.Events)
			replay := New(Options{Tape: tape, Location: time.UTC, Profile: termenv.Ascii, Server: r.Headers[0].Server})
			send(replay, tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
			send(replay, replaySeekMsg{at: tape.End()})

			press(live, "esc", "2")
			press(replay, "2")
			if sc := screen(replay); !lineWith(sc, "forced", "/locks/billing", "not told: may believe it holds") {
				t.Fatalf("the replay does not follow the force-released holder:\n%s", sc)
			}
			sameBody(t, "Sessions", live, replay)
			golden(t, "replay_sessions_forced_"+sz.name, replay)

			// The forced row opens its lock.
			press(live, "enter")
			press(replay, "enter")
			sameBody(t, "lock detail", live, replay)
			golden(t, "replay_detail_forced_"+sz.name, replay)
		})
	}
}

// sameBody fails unless the two Apps show the same screen between their
// title and status bars.
func sameBody(t *testing.T, what string, live, replay *App) {
	t.Helper()
	if l, r := ansi.Strip(live.body()), ansi.Strip(replay.body()); l != r {
		t.Fatalf("the replay's %s differs from the live UI's\n--- live\n%s\n--- replay\n%s", what, l, r)
	}
}

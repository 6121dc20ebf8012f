// Package model is what the operator knows: the application's state as
// plain Go, with pure transitions, shared by the terminal UI and the
// command line.
//
//   - [State]: locks with their analysis, sessions and their clients
//     ([State.Client], [ClientOf]), the connection, the event history
//     (grants, releases, joins, [HistoryEntry]) and derived counters, moved
//     forward only by [State.Apply] as watcher events arrive.
//   - What the commands print of it (`show`'s report, `ls`'s list,
//     `acquire --json`'s grant, `postmortem`'s stories) is package
//     model/report's; a hold or wait
//     that ended, as a report tells it, is an [Ended] ([State.EndedOf]).
//   - [Actions]: the operator's writes (acquire, force-release, revoke,
//     fence) through lockcore, refused under read-only, each destructive one
//     written to the [Audit] log, success or not, and told as a
//     lockcore.Action that an [ActionFeed] merges into the watcher's
//     events; the state alone keeps what the operator did (the ending
//     in [HistoryEntry.Action], the contenders followed in [State.Forced]).
//   - The past: [State.Timeline] is a lock's holds and waits over a window
//     ([LockTimes], [Span]), as the UI's timeline draws them; a [Tape]
//     replays a recording's events into the state at any point (`zklocks
//     replay`, `show --at`); [TellStory] is one lock's [Story] for
//     `zklocks postmortem`, and a [StoryPass] tells every lock's in one
//     pass ([StoryPass.TellAll]). [State.Snapshot] is a copy to read while the
//     state moves on: `zklocks serve`'s sessions go from one to the next,
//     taking in only the locks that changed.
//   - Presentation shared by every view: [Printable] and [DataText] escape
//     anything a terminal would interpret; [SessionText], [ShortNode] and
//     [Duration] format sessions, node names and durations.
package model

// Package e2e holds the end-to-end suites: tests that run the built
// zklocks binary as a user does, its terminal UI in tmux
// (internal/testkit/tmuxscreen), zklocks serve through OpenSSH's own
// client, the demo and the exporter as processes. It has no code of its
// own outside its tests.
package e2e

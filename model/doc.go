// Package model is what the operator knows: the application's state as
// plain Go, with pure transitions, shared by the terminal UI and the
// command line. It renders that state for scripts (JSON) and for people
// (tables), and escapes anything a terminal would interpret.
package model

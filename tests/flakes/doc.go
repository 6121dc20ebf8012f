// Command flakes runs go test with -json several times over while every
// core spins in a busy loop, and prints each test that failed at least once
// with the output of its failure: nothing at all when every run passed.
//
//	go run ./tests/flakes -count 3 -- -race -run '^TestIntegration' ./...
//
// The arguments after -- go to go test as they are; flakes adds -json and
// -count. The load is goroutines of this process, so it ends with go test
// (or after -load-for, whichever is first), however the run ends. The
// summary (runs, time, load average before and after) goes to stderr.
// `make flakes` runs it over the integration packages.
package main

package zktest

import (
	"bytes"
	"sync"
)

// SyncBuffer is a buffer that one goroutine may write (a process's output,
// a logger) while a test reads it: a bytes.Buffer under a mutex.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns what was written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

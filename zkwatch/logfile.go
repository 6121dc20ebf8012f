package zkwatch

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// FileLogger is a zk.Logger that appends timestamped lines to a file, so
// that go-zookeeper's complaints never reach a full-screen terminal. The
// file, and its directory when missing, are created with modes 0600 and
// 0700. A FileLogger is safe for concurrent use, and never fails its
// caller: lines it cannot write are dropped, and the first error is kept
// for [FileLogger.Err]. It writes what it is given: credentials are kept
// out by [Dial], which masks the secrets of [Options.Auth] in every line
// before it reaches its Logger.
type FileLogger struct {
	path string
	now  func() time.Time

	mu     sync.Mutex
	f      *os.File // open for the logger's life, from OpenLog; else nil
	err    error    // the first error opening or writing the file
	closed bool
}

// NewFileLogger returns a FileLogger that opens path for each line and
// closes it again, which suits one-shot commands: a command with nothing to
// log leaves no file behind, and there is nothing to close.
func NewFileLogger(path string) *FileLogger {
	return &FileLogger{path: path, now: time.Now}
}

// OpenLog opens (creating as needed) the log file at path now and keeps it
// open, for long-running callers that want to fail early, such as a
// full-screen UI. The *FileLogger is the zk.Logger to put in
// [Options.Logger] and the io.Closer to close at exit.
func OpenLog(path string) (*FileLogger, error) {
	f, err := openLogFile(path)
	if err != nil {
		return nil, err
	}
	return &FileLogger{path: path, now: time.Now, f: f}, nil
}

// Path returns the file's path.
func (l *FileLogger) Path() string { return l.path }

// Printf implements zk.Logger: it writes one line, prefixed with the local
// time to the millisecond. Lines after Close are dropped.
func (l *FileLogger) Printf(format string, args ...interface{}) {
	line := fmt.Sprintf(format, args...)
	line = l.now().Format("2006-01-02T15:04:05.000Z07:00") + " " + strings.TrimRight(line, "\n") + "\n"
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	f := l.f
	if f == nil {
		var err error
		if f, err = openLogFile(l.path); err != nil {
			l.keep(err)
			return
		}
		defer func() { l.keep(f.Close()) }()
	}
	if _, err := f.WriteString(line); err != nil {
		l.keep(fmt.Errorf("write log %s: %w", l.path, err))
	}
}

// Err returns the first error opening or writing the file, or nil.
func (l *FileLogger) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// Close closes the file if OpenLog opened it; later lines are dropped.
func (l *FileLogger) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// keep remembers err if it is the first; l.mu must be held.
func (l *FileLogger) keep(err error) {
	if l.err == nil {
		l.err = err
	}
}

// openLogFile opens path for appending, creating it with mode 0600 and its
// missing directories with mode 0700.
func openLogFile(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create log directory: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open log: %w", err)
	}
	return f, nil
}

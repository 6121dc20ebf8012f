package cli

import (
	"bytes"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

func TestIntegrationShowBadInput(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	server := zks.Addr()
	c := zks.Connect(t)
	mk := func(path string, data []byte, flags int32, acl []zk.ACL) {
		t.Helper()
		if _, err := c.Create(path, data, flags, acl); err != nil && err != zk.ErrNodeExists {
			t.Fatalf("create %s: %v", path, err)
		}
	}
	open := zk.WorldACL(zk.PermAll)
	mk(root+"/bad", nil, 0, open)
	mk(root+"/bad/lock", nil, 0, open)
	mk(root+"/bad/lock/hôte\u202eevil-R-0000000000", []byte("\x1b[2J\u202eevil"), zk.FlagEphemeral, open)
	mk(root+"/bad/lock/x-1-0000000001", bytes.Repeat([]byte{0xff, 0x00}, 500_000), zk.FlagEphemeral, open)
	mk(root+"/bad/denied", nil, 0, zk.DigestACL(zk.PermAll, "someone", "secret"))

	t.Run("missing and denied paths are named, the rest is shown", func(t *testing.T) {
		out, errOut, code := run(t, "show", "--json", "--server", server, root+"/bad/nope", root+"/bad/lock", root+"/bad/denied")
		if code != exitFailed {
			t.Fatalf("exit %d, want %d", code, exitFailed)
		}
		var s showJSON
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatal(err)
		}
		if len(s.Locks) != 1 || s.Locks[0].Path != root+"/bad/lock" || len(s.Errors) != 2 ||
			s.Errors[0].Path != root+"/bad/nope" || !strings.Contains(s.Errors[0].Error, "does not exist") ||
			s.Errors[1].Path != root+"/bad/denied" || !strings.Contains(s.Errors[1].Error, "not authenticated") {
			t.Fatalf("errors: %+v", s.Errors)
		}
		if !strings.Contains(errOut, root+"/bad/nope") || !strings.Contains(errOut, root+"/bad/denied") {
			t.Fatalf("stderr should name both paths: %s", errOut)
		}
	})

	t.Run("escapes, binary and huge data never reach the terminal raw", func(t *testing.T) {
		for _, args := range [][]string{{"show"}, {"show", "--json"}} {
			out, errOut, code := run(t, append(args, "--server", server, root+"/bad/lock")...)
			if code != exitOK {
				t.Fatalf("%v: exit %d: %s", args, code, errOut)
			}
			if strings.ContainsAny(out, "\x1b\x07\u202e") {
				t.Fatalf("%v printed a raw control character:\n%q", args, out)
			}
			if len(out) > 64*1024 {
				t.Fatalf("%v printed %d bytes for 1 MB of data", args, len(out))
			}
		}
		s := show(t, server, root+"/bad/lock")
		ps := s.Locks[0].Participants
		if len(ps) != 2 || ps[0].Data == nil || *ps[0].Data != "\x1b[2J\u202eevil" {
			t.Fatalf("text data should round-trip through JSON: %+v", ps)
		}
		if ps[1].DataB64 == nil || ps[1].Data != nil || !ps[1].Trunc {
			t.Fatalf("binary 1 MB data should be base64 and truncated: %+v", ps[1])
		}
	})

	t.Run("unreachable server fails within the timeout with exit 2", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		start := time.Now()
		_, errOut, code := run(t, "show", "--timeout", "1s", "--server", addr, "/x")
		if code != exitUnreachable || !strings.Contains(errOut, addr) || time.Since(start) > 10*time.Second {
			t.Fatalf("exit %d after %s: %s", code, time.Since(start), errOut)
		}
	})

	t.Run("a port speaking another protocol is unreachable too", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		go func() {
			for {
				conn, err := ln.Accept()
				if err != nil {
					return
				}
				conn.Write([]byte("HTTP/1.1 400 Bad Request\r\n\r\n"))
				conn.Close()
			}
		}()
		_, errOut, code := run(t, "show", "--timeout", "1s", "--server", ln.Addr().String(), "/x")
		if code != exitUnreachable {
			t.Fatalf("exit %d: %s", code, errOut)
		}
	})

	t.Run("malformed connect strings and paths are usage errors", func(t *testing.T) {
		for _, args := range [][]string{
			{"show", "--server", "host:notaport", "/x"},
			{"show", "--server", "h:2181/chroot/", "/x"},
			{"show", "--server", server, "relative"},
			{"show", "--server", server, "/a//b"},
			{"show", "--server", server},
			{"show", "--timeout", "0s", "--server", server, "/x"},
		} {
			if _, errOut, code := run(t, args...); code != exitUsage || errOut == "" {
				t.Fatalf("%v: exit %d (%s), want %d", args, code, errOut, exitUsage)
			}
		}
	})

	t.Run("a chroot makes paths relative", func(t *testing.T) {
		s := show(t, server+root+"/bad", "/lock")
		if s.Locks[0].Path != "/lock" || len(s.Locks[0].Participants) != 2 || s.Server != server+root+"/bad" {
			t.Fatalf("chroot: %+v", s)
		}
	})
}

func TestIntegrationShowWithoutWatchTable(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t, zktest.WithFourLetterWords("srvr"))
	c := zks.Connect(t)
	for _, p := range []string{"/l", "/l/lock-1-0000000000", "/l/lock-2-0000000001"} {
		if _, err := c.Create(p, nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
			t.Fatal(err)
		}
	}
	s := show(t, zks.Addr(), "/l")
	if s.WatchesSource != "recipe" || !strings.Contains(s.WatchesNote, "refused") {
		t.Fatalf("watches_source %q note %q", s.WatchesSource, s.WatchesNote)
	}
	if ps := s.Locks[0].Participants; len(ps) != 2 || *ps[1].Watches != "lock-1-0000000000" {
		t.Fatalf("recipe rule should give the watch target: %+v", ps)
	}
	if got := kinds(s); len(got) != 2 || got[0] != "persistent" {
		t.Fatalf("persistent contenders expected, got %v", got)
	}
}

package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// noRawControl fails when output would let a terminal interpret something.
func noRawControl(t *testing.T, what, out string) {
	t.Helper()
	for _, r := range out {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			t.Fatalf("%s wrote a raw control character %U:\n%q", what, r, out)
		}
	}
	if strings.Contains(out, "panic") || strings.Contains(out, "goroutine ") {
		t.Fatalf("%s panicked:\n%s", what, out)
	}
}

func TestIntegrationBadInputTable(t *testing.T) {
	t.Parallel()
	// A server of its own: 100,000 nodes make a server large, and a large
	// server changes how ls and check search every tree on it.
	zks := zktest.Start(t)
	server := zks.Addr()
	c := zks.Connect(t)
	open := zk.WorldACL(zk.PermAll)
	const bi = "/bi"
	for _, p := range []string{bi, bi + "/日本語-locks", bi + "/wide"} {
		if _, err := c.Create(p, nil, 0, open); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Create(bi+"/日本語-locks/ホスト-W-", []byte("データ"), zk.FlagEphemeral|zk.FlagSequence, open); err != nil {
		t.Fatal(err)
	}
	// A parent with 100,000 contenders, created a thousand to a multi
	// (one request and one transaction each), several multis at a time.
	const wide, batch, workers = 100_000, 1000, 4
	var wg sync.WaitGroup
	errs := make(chan error, 1)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for first := w * batch; first < wide; first += workers * batch {
				ops := make([]any, 0, batch)
				for i := first; i < first+batch && i < wide; i++ {
					ops = append(ops, &zk.CreateRequest{Path: fmt.Sprintf("%s/wide/lock-%d-%010d", bi, i%7, i), Acl: open})
				}
				if _, err := c.Multi(ops...); err != nil {
					select {
					case errs <- err:
					default:
					}
					return
				}
			}
		}()
	}
	wg.Wait()
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}

	for _, tc := range []struct {
		name string
		args []string
		code int
		want string // in stdout or stderr
	}{
		{"a chroot that does not exist", []string{"show", "--server", server + "/no/such/root", "/locks"}, exitFailed, "/locks"},
		{"ls under a missing chroot", []string{"ls", "--server", server + "/no/such/root"}, exitFailed, "does not exist"},
		{"a root that does not exist", []string{"ls", "--server", server, "--root", "/nope"}, exitFailed, "/nope"},
		{"unicode names", []string{"show", "--server", server, bi + "/日本語-locks"}, exitOK, "ホスト-W-0000000000"},
		// show's --timeout is left at its default (10 s): it bounds how
		// long the server may leave the read unanswered, not the read of
		// 100,000 contenders, which takes 20 s or more under -race.
		{"100,000 contenders: show", []string{"show", "--server", server, bi + "/wide"}, exitOK, "1 holding, 99999 waiting"},
		{"100,000 contenders: ls", []string{"ls", "--server", server, "--timeout", "60s", "--root", bi}, exitOK, "99999"},
		{"an unknown flag", []string{"show", "--bogus", "/x"}, exitUsage, "unknown flag"},
		{"a bad duration", []string{"show", "--timeout", "soon", "/x"}, exitUsage, "invalid argument"},
		{"an empty server", []string{"show", "--server", "", "/x"}, exitUsage, "server"},
		{"a port out of range", []string{"show", "--server", "127.0.0.1:70000", "/x"}, exitUsage, "65535"},
		{"a bad mode", []string{"acquire", "/x", "--mode", "shared"}, exitUsage, "--mode"},
		{"release of a relative path", []string{"release", "x", "--force"}, exitUsage, "must start with /"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			out, errOut, code := run(t, tc.args...)
			noRawControl(t, tc.name, out+errOut)
			if code != tc.code || !strings.Contains(out+errOut, tc.want) {
				t.Fatalf("exit %d (want %d), want %q in:\n%s\n%s", code, tc.code, tc.want, truncate(out), errOut)
			}
			t.Logf("%s: exit %d in %s", tc.name, code, time.Since(start).Round(time.Millisecond))
		})
	}
}

func truncate(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "…"
	}
	return s
}

func TestIntegrationServerDiesMidWalk(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	c := zks.Connect(t)
	open := zk.WorldACL(zk.PermAll)
	if _, err := c.Create("/walk", nil, 0, open); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < 3000; i += 16 {
				c.Create(fmt.Sprintf("/walk/d%04d", i), nil, 0, open)
			}
		}()
	}
	wg.Wait()
	done := make(chan struct{})
	var out, errOut string
	var code int
	go func() {
		defer close(done)
		out, errOut, code = run(t, "ls", "--server", zks.Addr(), "--timeout", "5s", "--root", "/walk")
	}()
	time.Sleep(150 * time.Millisecond)
	zks.Stop()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("ls hung after the server died")
	}
	noRawControl(t, "ls", out+errOut)
	// Either the walk finished before the server died, or it reports what
	// it could not read; it never pretends an interrupted walk is whole.
	if code != exitOK && (code != exitFailed && code != exitUnreachable || errOut == "") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	t.Logf("ls while the server died: exit %d: %s", code, strings.SplitN(errOut, "\n", 2)[0])
}

func TestIntegrationCredentialsNeverShown(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	c := zks.Connect(t)
	if err := c.AddAuth("digest", []byte("ops:s3cr3t-pw")); err != nil {
		t.Fatal(err)
	}
	acl := zk.DigestACL(zk.PermAll, "ops", "s3cr3t-pw")
	sec := root + "/sec"
	if _, err := c.Create(sec, nil, 0, acl); err != nil {
		t.Fatal(err)
	}
	node, err := c.Create(sec+"/lock-", nil, zk.FlagEphemeral|zk.FlagSequence, acl)
	if err != nil {
		t.Fatal(err)
	}
	audit := filepath.Join(t.TempDir(), "audit.log")
	var all strings.Builder
	for _, args := range [][]string{
		{"show", sec},
		{"show", "--json", sec},
		{"ls", "--root", sec},
		{"release", node, "--force", "--yes", "--audit-log", audit},
		{"show", "--server", "127.0.0.1:1", "--timeout", "1s", sec},
	} {
		full := append([]string{args[0], "--auth", "digest:ops:s3cr3t-pw"}, args[1:]...)
		if !containsFlag(args, "--server") {
			full = append(full, "--server", zks.Addr())
		}
		out, errOut, _ := run(t, full...)
		all.WriteString(out + errOut)
	}
	all.WriteString(readFile(t, audit))
	if strings.Contains(all.String(), "s3cr3t-pw") {
		t.Fatalf("the password appeared in output or the audit log:\n%s", all.String())
	}
	var last struct{ Action, Result string }
	lines := strings.Split(strings.TrimSpace(readFile(t, audit)), "\n")
	json.Unmarshal([]byte(lines[len(lines)-1]), &last)
	if last.Action != "force-release" || last.Result != "ok" {
		t.Fatalf("the authenticated release should have worked: %s", lines[len(lines)-1])
	}
}

func containsFlag(args []string, flag string) bool {
	for _, a := range args {
		if a == flag {
			return true
		}
	}
	return false
}

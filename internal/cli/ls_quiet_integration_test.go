package cli

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// TestIntegrationLsQuietWhenEveryWordAnswered: ZooKeeper as the official
// image ships it (srvr alone whitelisted, the AdminServer on) answers every
// question, the refused words by the AdminServer: ls lists the lock and
// prints nothing on stderr.
func TestIntegrationLsQuietWhenEveryWordAnswered(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t, zktest.WithFourLetterWords("srvr"), zktest.WithAdminServer())
	kazoo := peers.Start(t, peers.Kazoo, zks.Addr())
	kazoo.Acquire(t, "holder", "lock", "/quiet/orders")
	kazoo.WaitHeld(t, "holder", 30*time.Second)
	out, errOut, code := run(t, "ls", "--server", zks.Addr(), "--admin-port", fmt.Sprint(zks.AdminPort()), "--root", "/quiet")
	if code != exitOK || !strings.Contains(out, "/quiet/orders") || errOut != "" {
		t.Fatalf("exit %d, stderr %q:\n%s", code, errOut, out)
	}
}

package zkserver

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"
)

// TestIntegrationAdminPortTakenIsSaid: a quorum member whose AdminServer
// port another process holds still serves, and only its log says so;
// PortTaken reads it there, so that a caller can start it again elsewhere.
func TestIntegrationAdminPortTakenIsSaid(t *testing.T) {
	t.Parallel()
	holder, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	ports, err := FreePorts(3)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Launch(Config{
		Port: ports[0], ID: 1, Admin: true, AdminPort: holder.Addr().(*net.TCPAddr).Port,
		Peers: []string{fmt.Sprintf("server.1=127.0.0.1:%d:%d:participant;127.0.0.1:%d", ports[1], ports[2], ports[0])},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if err := s.Wait(ctx); err != nil {
		t.Fatalf("the member did not serve: %v", err)
	}
	if !s.PortTaken() {
		t.Fatalf("PortTaken is false for a member whose AdminServer port was held:\n%s", s.LogTail())
	}
}

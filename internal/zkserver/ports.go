package zkserver

import (
	"fmt"
	"net"
	"sync"
)

// handedOut is every port FreePorts has returned in this process.
var handedOut = struct {
	sync.Mutex
	ports map[int]bool
}{ports: map[int]bool{}}

// skipLimit bounds how many ports handed out before one FreePorts call
// passes over before it takes one again.
const skipLimit = 1000

// FreePorts returns n distinct loopback TCP ports that were free a moment
// ago and that it has not returned before in this process. All n
// listeners are open at once so that the kernel cannot hand out the same
// port twice in one call; across calls it does, often (measured: about one
// run of 12 single-port calls in 120 got a port twice), and a port handed
// to two servers goes to whichever binds first: the other's client port
// fails its start, its AdminServer is silently another server's. Another
// process can still take a port before a server binds it.
func FreePorts(n int) ([]int, error) {
	handedOut.Lock()
	defer handedOut.Unlock()
	ports := make([]int, 0, n)
	skipped := 0
	for len(ports) < n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("zkserver: find a free port: %w", err)
		}
		// Open until the call returns, so that the kernel offers another.
		defer l.Close()
		port := l.Addr().(*net.TCPAddr).Port
		if handedOut.ports[port] && skipped < skipLimit {
			skipped++
			continue
		}
		handedOut.ports[port] = true
		ports = append(ports, port)
	}
	return ports, nil
}

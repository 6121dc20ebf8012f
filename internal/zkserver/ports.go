package zkserver

import (
	"fmt"
	"net"
)

// FreePorts returns n distinct loopback TCP ports that were free a moment
// ago. All n listeners are open at once so that the kernel cannot hand out
// the same port twice; another process can still take one before a server
// binds it.
func FreePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("zkserver: find a free port: %w", err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

package zktest

import (
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// Proxy is a TCP proxy on loopback between clients and one server that can
// inject faults: drop every connection, blackhole traffic (so sessions
// expire while the server runs), and delay it.
type Proxy struct {
	ln     net.Listener
	target string

	mu        sync.Mutex
	conns     map[net.Conn]bool
	blackhole bool
	delay     time.Duration
	closed    bool
}

// NewProxy starts a proxy to target (host:port), closed at t's Cleanup.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("zktest: proxy: %v", err)
	}
	p := &Proxy{ln: ln, target: target, conns: map[net.Conn]bool{}}
	go p.serve()
	t.Cleanup(p.Close)
	return p
}

// Addr is the proxy's client address.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Drop closes every connection through the proxy; clients reconnect.
func (p *Proxy) Drop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		c.Close()
	}
}

// Blackhole, while on, lets no byte through: open connections are cut, new
// ones are accepted and then ignored. A session whose client cannot reach
// the server for longer than its timeout expires.
func (p *Proxy) Blackhole(on bool) {
	p.mu.Lock()
	p.blackhole = on
	p.mu.Unlock()
	p.Drop()
}

// Admit ends a blackhole for new connections only: the ones it swallowed
// stay open and unanswered, as a server that accepted them and never reads
// them (ZooKeeper while it still loads its data).
func (p *Proxy) Admit() {
	p.mu.Lock()
	p.blackhole = false
	p.mu.Unlock()
}

// Held is how many connections the proxy holds open (while blackholed,
// the ones it swallows).
func (p *Proxy) Held() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.conns)
}

// Delay holds every chunk of traffic for d before passing it on.
func (p *Proxy) Delay(d time.Duration) {
	p.mu.Lock()
	p.delay = d
	p.mu.Unlock()
}

// Close stops the proxy and cuts its connections.
func (p *Proxy) Close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.ln.Close()
	p.Drop()
}

func (p *Proxy) serve() {
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			client.Close()
			return
		}
		p.conns[client] = true
		hole := p.blackhole
		p.mu.Unlock()
		if hole {
			go p.swallow(client)
			continue
		}
		go p.forward(client)
	}
}

// swallow reads and discards until the connection is cut.
func (p *Proxy) swallow(c net.Conn) {
	io.Copy(io.Discard, c)
	p.forget(c)
}

func (p *Proxy) forward(client net.Conn) {
	server, err := net.Dial("tcp", p.target)
	if err != nil {
		client.Close()
		p.forget(client)
		return
	}
	p.mu.Lock()
	p.conns[server] = true
	p.mu.Unlock()
	done := make(chan struct{}, 2)
	go func() { p.pipe(server, client); done <- struct{}{} }()
	go func() { p.pipe(client, server); done <- struct{}{} }()
	<-done
	client.Close()
	server.Close()
	<-done
	p.forget(client)
	p.forget(server)
}

func (p *Proxy) pipe(dst, src net.Conn) {
	buf := make([]byte, 32*1024)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.mu.Lock()
			d, hole := p.delay, p.blackhole
			p.mu.Unlock()
			if hole {
				return
			}
			if d > 0 {
				time.Sleep(d)
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *Proxy) forget(c net.Conn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
}

package words

import (
	"bufio"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"time"
)

// Connection is one client connection in a cons reply, as the server saw it
// when it answered. Counters and latencies run since the connection opened
// or since the last crst. Latencies are whole milliseconds on the wire.
type Connection struct {
	// Client is the peer address as the server printed it, without the
	// leading "/": "127.0.0.1:47382", or "[0:0:0:0:0:0:0:1]:43950" for IPv6
	// (Java before 14 printed IPv6 without brackets).
	Client string
	// ClientAddr is Client parsed; it is the zero value if Client does not
	// parse.
	ClientAddr netip.AddrPort
	// InterestOps is the NIO interest set in brackets after the address
	// (1 read, 4 write); 0 means the server is not reading from the client.
	InterestOps int
	// Session is the session id, or 0 for a connection without a session:
	// one still handshaking, or the connection that asked for cons.
	Session int64
	// LastOperation is the last request type, such as "GETD", "EXIS",
	// "CREA", "PING", or "NA" after crst.
	LastOperation string
	// Queued counts requests in flight; Received and Sent count packets.
	Queued, Received, Sent int64
	// Established is when the connection was accepted (server wall clock).
	Established time.Time
	// Timeout is the negotiated session timeout.
	Timeout time.Duration
	// LastCxid is the client's last request id, -1 if none since crst.
	LastCxid int64
	// LastZxid is the last zxid sent to the client; crst sets it to -1.
	LastZxid int64
	// LastResponseMonoMs is when the server last responded, in milliseconds
	// on the server's monotonic clock (not the wall clock, with an
	// arbitrary origin): compare it only with readings from the same server
	// process. It is 0 after crst.
	LastResponseMonoMs int64

	LastLatency, MinLatency, AvgLatency, MaxLatency float64
}

// ParseCons parses a cons reply, one connection per line:
//
//	/127.0.0.1:47382[1](queued=0,recved=10,sent=10,sid=0x10000094ea10000,lop=GETD,est=1795356075745,to=10000,lcxid=0x9,lzxid=0x8,lresp=610376,llat=0,minlat=0,avglat=2,maxlat=14)
//	/[0:0:0:0:0:0:0:1]:46924[0](queued=0,recved=1,sent=0)
//
// A connection without a session prints only the three counters; lcxid is
// left out when there is none. Keys it does not know are ignored. The list
// is one server's: in an ensemble, ask every member.
func ParseCons(text string) ([]Connection, error) {
	if err := replyError(text); err != nil {
		return nil, err
	}
	var conns []Connection
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		c, err := parseConsLine(line)
		if err != nil {
			return nil, fmt.Errorf("words: cons line %d: %w", n, err)
		}
		conns = append(conns, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("words: cons: %w", err)
	}
	return conns, nil
}

// parseConsLine parses "ADDR[OPS](k=v,...)".
func parseConsLine(line string) (Connection, error) {
	head, body, ok := strings.Cut(line, "(")
	if !ok || !strings.HasSuffix(body, ")") {
		return Connection{}, fmt.Errorf("%q has no (...) part", line)
	}
	body = strings.TrimSuffix(body, ")")
	open := strings.LastIndex(head, "[")
	if open < 0 || !strings.HasSuffix(head, "]") {
		return Connection{}, fmt.Errorf("%q has no [interest ops]", line)
	}
	ops, err := strconv.ParseInt(head[open+1:len(head)-1], 16, 32)
	if err != nil {
		return Connection{}, fmt.Errorf("interest ops in %q: %w", line, err)
	}
	c := Connection{InterestOps: int(ops), LastCxid: -1}
	// InetSocketAddress prints "hostname/literal:port"; keep the literal.
	c.Client = head[:open]
	if i := strings.Index(c.Client, "/"); i >= 0 {
		c.Client = c.Client[i+1:]
	}
	c.ClientAddr = parseClientAddr(c.Client)
	for kv := range strings.SplitSeq(body, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return Connection{}, fmt.Errorf("%q in %q is not key=value", kv, line)
		}
		if err := c.set(k, v); err != nil {
			return Connection{}, fmt.Errorf("%s in %q: %w", k, line, err)
		}
	}
	return c, nil
}

// parseClientAddr parses "1.2.3.4:5", "[::1]:5", and the bracketless IPv6
// "0:0:0:0:0:0:0:1:5" of older Java, where the port follows the last colon.
func parseClientAddr(s string) netip.AddrPort {
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap
	}
	i := strings.LastIndex(s, ":")
	if i < 0 {
		return netip.AddrPort{}
	}
	addr, err1 := netip.ParseAddr(s[:i])
	port, err2 := strconv.ParseUint(s[i+1:], 10, 16)
	if err1 != nil || err2 != nil {
		return netip.AddrPort{}
	}
	return netip.AddrPortFrom(addr, uint16(port))
}

// set stores one key=value pair of a cons line.
func (c *Connection) set(k, v string) error {
	var err error
	switch k {
	case "queued":
		c.Queued, err = strconv.ParseInt(v, 10, 64)
	case "recved":
		c.Received, err = strconv.ParseInt(v, 10, 64)
	case "sent":
		c.Sent, err = strconv.ParseInt(v, 10, 64)
	case "sid":
		c.Session, err = parseHex(v)
	case "lop":
		c.LastOperation = v
	case "est":
		var ms int64
		ms, err = strconv.ParseInt(v, 10, 64)
		c.Established = time.UnixMilli(ms)
	case "to":
		var ms int64
		ms, err = strconv.ParseInt(v, 10, 64)
		c.Timeout = time.Duration(ms) * time.Millisecond
	case "lcxid":
		c.LastCxid, err = parseHex(v)
	case "lzxid":
		c.LastZxid, err = parseHex(v)
	case "lresp":
		c.LastResponseMonoMs, err = strconv.ParseInt(v, 10, 64)
	case "llat":
		c.LastLatency, err = strconv.ParseFloat(v, 64)
	case "minlat":
		c.MinLatency, err = strconv.ParseFloat(v, 64)
	case "avglat":
		c.AvgLatency, err = strconv.ParseFloat(v, 64)
	case "maxlat":
		c.MaxLatency, err = strconv.ParseFloat(v, 64)
	}
	return err
}

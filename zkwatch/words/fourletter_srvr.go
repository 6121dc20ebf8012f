package words

import (
	"bufio"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ServerStatus is one server's answer to srvr: what it was at the moment it
// answered. Latencies are in milliseconds, over the requests the server has
// handled since it started or since the last srst.
type ServerStatus struct {
	// Addr is the host:port that was asked; ParseSrvr leaves it empty.
	Addr string
	// Mode is "standalone", "leader", "follower", "observer" or "read-only".
	Mode string
	// Version is the release, such as "3.8.0"; FullVersion is the whole
	// version line, with build commit and date.
	Version, FullVersion string

	LatencyMin, LatencyAvg, LatencyMax float64
	// Received and Sent count packets; Outstanding is requests in flight.
	Received, Sent, Outstanding int64
	// Connections is the number of client connections to this server,
	// including the one that asked.
	Connections int
	// Zxid is the last transaction this server has seen; a follower that
	// has not yet applied a write can lag the leader.
	Zxid int64
	// NodeCount is the number of znodes, including /zookeeper and its
	// children.
	NodeCount int
}

// ParseSrvr parses a srvr reply:
//
//	Zookeeper version: 3.8.0-<commit>, built on 2024-12-29 17:54 UTC
//	Latency min/avg/max: 0/1.6667/7
//	Received: 15
//	Sent: 14
//	Connections: 3
//	Outstanding: 0
//	Zxid: 0x5
//	Mode: standalone
//	Node count: 8
//
// Latencies are milliseconds (avg has a fraction). A leader adds "Proposal
// sizes last/min/max"; lines it does not know are ignored. A reply without a
// Mode line is an error, wrapping [ErrNotServing] or [ErrFourLetterRefused]
// when the reply is one of those.
func ParseSrvr(text string) (ServerStatus, error) {
	if err := replyError(text); err != nil {
		return ServerStatus{}, err
	}
	var st ServerStatus
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ": ")
		if !ok {
			continue
		}
		if err := st.set(key, strings.TrimSpace(val)); err != nil {
			return ServerStatus{}, fmt.Errorf("words: srvr %s: %w", key, err)
		}
	}
	if st.Mode == "" {
		return ServerStatus{}, errors.New("words: srvr reply has no Mode line")
	}
	return st, nil
}

// set stores one "key: value" line of a srvr reply.
func (st *ServerStatus) set(key, val string) error {
	var err error
	switch key {
	case "Zookeeper version":
		st.FullVersion = val
		st.Version, _, _ = strings.Cut(val, ",")
		st.Version, _, _ = strings.Cut(st.Version, "-")
	case "Latency min/avg/max":
		st.LatencyMin, st.LatencyAvg, st.LatencyMax, err = parseLatencies(val)
	case "Received":
		st.Received, err = strconv.ParseInt(val, 10, 64)
	case "Sent":
		st.Sent, err = strconv.ParseInt(val, 10, 64)
	case "Outstanding":
		st.Outstanding, err = strconv.ParseInt(val, 10, 64)
	case "Connections":
		st.Connections, err = strconv.Atoi(val)
	case "Zxid":
		st.Zxid, err = parseHex(val)
	case "Mode":
		st.Mode = val
	case "Node count":
		st.NodeCount, err = strconv.Atoi(val)
	}
	return err
}

// parseLatencies parses "min/avg/max" in milliseconds.
func parseLatencies(s string) (lo, avg, hi float64, err error) {
	parts := strings.Split(s, "/")
	if len(parts) != 3 {
		return 0, 0, 0, fmt.Errorf("want min/avg/max, got %q", s)
	}
	var v [3]float64
	for i, p := range parts {
		if v[i], err = strconv.ParseFloat(p, 64); err != nil {
			return 0, 0, 0, err
		}
	}
	return v[0], v[1], v[2], nil
}

// parseHex parses ZooKeeper's "0x..." rendering of a Java long (a zxid or
// session id), which prints negative values as 16 hex digits.
func parseHex(s string) (int64, error) {
	digits, ok := strings.CutPrefix(s, "0x")
	if !ok {
		return 0, fmt.Errorf("%q is not 0x-prefixed hex", s)
	}
	u, err := strconv.ParseUint(digits, 16, 64)
	return int64(u), err
}

// StatusAnswer takes a member's status from whichever way answered: the
// text of srvr, or the AdminServer's server_stats.
type StatusAnswer struct {
	text string
	st   ServerStatus
}

// Reader reads either answer into a.
func (a *StatusAnswer) Reader() Reader {
	return Reader{Text: TextReader(&a.text), JSON: AdminStatus(&a.st)}
}

// Status is the status the way via gave; srvr's text is parsed now.
func (a *StatusAnswer) Status(via Via) (ServerStatus, error) {
	if via != ViaWord {
		return a.st, nil
	}
	return ParseSrvr(a.text)
}

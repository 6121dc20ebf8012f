package words

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The readers below take the AdminServer's JSON answers (see AdminStream)
// into the same values the four-letter words' parsers give. Session ids
// are Java longs, above 2^53: they are read from json.Number or into int64
// fields, never through float64.

// adminConn is one element of connections' "connections" array.
type adminConn struct {
	RemoteSocketAddress string  `json:"remote_socket_address"`
	InterestOps         int     `json:"interest_ops"`
	OutstandingRequests int64   `json:"outstanding_requests"`
	PacketsReceived     int64   `json:"packets_received"`
	PacketsSent         int64   `json:"packets_sent"`
	SessionID           int64   `json:"session_id"`
	LastOperation       string  `json:"last_operation"`
	Established         int64   `json:"established"`
	SessionTimeout      int64   `json:"session_timeout"`
	LastCxid            *int64  `json:"last_cxid"`
	LastZxid            int64   `json:"last_zxid"`
	LastResponseTime    int64   `json:"last_response_time"`
	LastLatency         float64 `json:"last_latency"`
	MinLatency          float64 `json:"min_latency"`
	AvgLatency          float64 `json:"avg_latency"`
	MaxLatency          float64 `json:"max_latency"`
}

func (c adminConn) connection() Connection {
	out := Connection{Client: c.RemoteSocketAddress, InterestOps: c.InterestOps, Session: c.SessionID,
		LastOperation: c.LastOperation, Queued: c.OutstandingRequests, Received: c.PacketsReceived,
		Sent: c.PacketsSent, Timeout: time.Duration(c.SessionTimeout) * time.Millisecond, LastCxid: -1,
		LastZxid: c.LastZxid, LastResponseMonoMs: c.LastResponseTime, LastLatency: c.LastLatency,
		MinLatency: c.MinLatency, AvgLatency: c.AvgLatency, MaxLatency: c.MaxLatency}
	// Jackson writes "hostname/1.2.3.4:5" when the address carries a name,
	// as cons does; keep the literal.
	if i := strings.LastIndex(out.Client, "/"); i >= 0 {
		out.Client = out.Client[i+1:]
	}
	out.ClientAddr = parseClientAddr(out.Client)
	if c.Established > 0 {
		out.Established = time.UnixMilli(c.Established)
	}
	if c.LastCxid != nil {
		out.LastCxid = *c.LastCxid
	}
	return out
}

// AdminConnections reads connections' "connections" and
// "secure_connections" arrays, one element at a time, into conns.
func AdminConnections(conns *[]Connection) AdminField {
	return func(key string, dec *json.Decoder) (bool, error) {
		if key != "connections" && key != "secure_connections" {
			return false, nil
		}
		if err := expectDelim(dec, '['); err != nil {
			return true, err
		}
		for dec.More() {
			var c adminConn
			if err := dec.Decode(&c); err != nil {
				return true, err
			}
			*conns = append(*conns, c.connection())
		}
		return true, expectDelim(dec, ']')
	}
}

// adminStats is server_stats' "server_stats" object.
type adminStats struct {
	PacketsSent       int64   `json:"packets_sent"`
	PacketsReceived   int64   `json:"packets_received"`
	ServerState       string  `json:"server_state"`
	LastProcessedZxid int64   `json:"last_processed_zxid"`
	Outstanding       int64   `json:"outstanding_requests"`
	AvgLatency        float64 `json:"avg_latency"`
	MaxLatency        float64 `json:"max_latency"`
	MinLatency        float64 `json:"min_latency"`
	Connections       int     `json:"num_alive_client_connections"`
}

// AdminStatus reads server_stats into st, as srvr would fill it. The
// connection count does not include the asker: an AdminServer request is
// not a client connection.
func AdminStatus(st *ServerStatus) AdminField {
	return func(key string, dec *json.Decoder) (bool, error) {
		switch key {
		case "version":
			if err := dec.Decode(&st.FullVersion); err != nil {
				return true, err
			}
			st.Version, _, _ = strings.Cut(st.FullVersion, ",")
			st.Version, _, _ = strings.Cut(st.Version, "-")
		case "node_count":
			return true, dec.Decode(&st.NodeCount)
		case "server_stats":
			var s adminStats
			if err := dec.Decode(&s); err != nil {
				return true, err
			}
			st.Mode, st.Zxid, st.Received, st.Sent, st.Outstanding = s.ServerState, s.LastProcessedZxid, s.PacketsReceived, s.PacketsSent, s.Outstanding
			st.LatencyMin, st.LatencyAvg, st.LatencyMax, st.Connections = s.MinLatency, s.AvgLatency, s.MaxLatency, s.Connections
		default:
			return false, nil
		}
		return true, nil
	}
}

// AdminWatchSummary reads watch_summary's total of data watches.
func AdminWatchSummary(total *int) AdminField {
	return func(key string, dec *json.Decoder) (bool, error) {
		if key != "num_total_watches" {
			return false, nil
		}
		return true, dec.Decode(total)
	}
}

// AdminWatchTable reads watches ("session_id_to_watched_paths") or
// watches_by_path ("path_to_session_ids") into table by session, keeping
// only the paths keep accepts (every path when keep is nil), as
// ParseWatchStream does for wchc and wchp. Paths are not sorted here.
func AdminWatchTable(table map[int64][]string, keep func(path string) bool) AdminField {
	return func(key string, dec *json.Decoder) (bool, error) {
		var add func(outer, inner string) error
		switch key {
		case "session_id_to_watched_paths":
			add = func(sid, p string) error { return keepAdminWatch(table, sid, p, keep) }
		case "path_to_session_ids":
			add = func(p, sid string) error { return keepAdminWatch(table, sid, p, keep) }
		default:
			return false, nil
		}
		return true, readStringLists(dec, add)
	}
}

func keepAdminWatch(table map[int64][]string, sid, p string, keep func(path string) bool) error {
	if !strings.HasPrefix(p, "/") {
		return fmt.Errorf("%q is not a path", p)
	}
	if !kept(keep, p) {
		return nil
	}
	s, err := strconv.ParseInt(sid, 10, 64)
	if err != nil {
		return fmt.Errorf("session id %q: %w", sid, err)
	}
	table[s] = append(table[s], p)
	return nil
}

// AdminEphemerals reads dump's "session_id_to_ephemeral_paths" as
// ParseDump reads the text dump: by parent, the nodes whose directory keep
// accepts, and into e.Owners (if not nil) the owners of those contender
// accepts.
func AdminEphemerals(e *Ephemerals, keep, contender func(string) bool) AdminField {
	sessions := map[string]bool{}
	return func(key string, dec *json.Decoder) (bool, error) {
		if key != "session_id_to_ephemeral_paths" {
			return false, nil
		}
		err := readStringLists(dec, func(sid, p string) error {
			if !sessions[sid] {
				sessions[sid] = true
				e.Sessions++
			}
			id, err := strconv.ParseInt(sid, 10, 64)
			if err != nil {
				return fmt.Errorf("session id %q: %w", sid, err)
			}
			dir, name := parentAndName(p)
			addNode(e, dir, name, id, keep, contender)
			return nil
		})
		e.finish()
		return true, err
	}
}

// AdminExpiry reads dump's "expiry_time_to_session_ids": when each session
// is due to expire, in milliseconds on the member's monotonic clock, given
// as a time only to be compared with the others in the same answer. Only
// a leader or a standalone server fills it.
func AdminExpiry(at map[int64]time.Time) AdminField {
	return func(key string, dec *json.Decoder) (bool, error) {
		if key != "expiry_time_to_session_ids" {
			return false, nil
		}
		return true, readStringLists(dec, func(ms, sid string) error {
			t, err := strconv.ParseInt(ms, 10, 64)
			if err != nil {
				return fmt.Errorf("expiry %q: %w", ms, err)
			}
			s, err := strconv.ParseInt(sid, 10, 64)
			if err != nil {
				return fmt.Errorf("session id %q: %w", sid, err)
			}
			at[s] = time.UnixMilli(t)
			return nil
		})
	}
}

// readStringLists reads an object whose values are arrays of strings or
// numbers ({"k": [v, ...]}) one key at a time, calling add with the key and
// each element's text: a number's exact digits. Each key's array is
// decoded whole (one session's paths, one path's sessions): token by token
// is several times slower, and the object as a whole is never held.
func readStringLists(dec *json.Decoder, add func(key, value string) error) error {
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	var values []any
	for dec.More() {
		key, err := stringToken(dec)
		if err != nil {
			return err
		}
		values = values[:0]
		if err := dec.Decode(&values); err != nil {
			return fmt.Errorf("under %q: %w", key, err)
		}
		for _, v := range values {
			var text string
			switch x := v.(type) {
			case string:
				text = x
			case json.Number:
				text = x.String()
			default:
				return fmt.Errorf("under %q: want a string or a number, got %v", key, v)
			}
			if err := add(key, text); err != nil {
				return err
			}
		}
	}
	return expectDelim(dec, '}')
}

// SortTable sorts each session's paths and drops duplicates.
func SortTable(table map[int64][]string) {
	for s, paths := range table {
		slices.Sort(paths)
		table[s] = slices.Compact(paths)
	}
}

package words

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// javaDate is how Java's Date.toString prints a time, which the dump uses.
const javaDate = "Mon Jan 02 15:04:05 MST 2006"

// ParseSessionExpiry reads the session tracker at the head of a dump
// reply, as the leader (or a standalone server) prints it:
//
//	SessionTracker dump:
//	Session Sets (2)/(1):
//	0 expire at Mon Nov 23 10:16:47 UTC 2026:
//	1 expire at Mon Nov 23 10:16:48 UTC 2026:
//		0x100008b69500000
//	ephemeral nodes dump:
//
// and returns when each session is due to expire, to the second, on the
// server's clock and in its time zone (an abbreviation Go may not know:
// compare these times only with each other). A follower's tracker lists
// sessions without expiry ("Global Sessions(1):" then "0x…\t6000ms"), so
// its map is empty. It stops at the ephemeral nodes with ErrTrackerRead,
// or returns nil at the end of the reply.
func ParseSessionExpiry(r *bufio.Reader) (map[int64]time.Time, error) {
	out := map[int64]time.Time{}
	var bucket time.Time
	for n := 1; ; n++ {
		line, err := r.ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return out, fmt.Errorf("words: dump line %d: %w", n, err)
		}
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(line, "ephemeral nodes dump") {
			return out, ErrTrackerRead
		}
		if _, when, ok := strings.Cut(line, " expire at "); ok && !strings.HasPrefix(line, "\t") {
			bucket = time.Time{}
			if t, perr := time.Parse(javaDate, strings.TrimSuffix(when, ":")); perr == nil {
				bucket = t
			}
		} else if s, ok := strings.CutPrefix(line, "\t0x"); ok && !bucket.IsZero() {
			if id, perr := strconv.ParseUint(s, 16, 64); perr == nil {
				out[int64(id)] = bucket
			}
		} else if !strings.HasPrefix(line, "\t") {
			bucket = time.Time{}
		}
		if errors.Is(err, io.EOF) {
			return out, nil
		}
	}
}

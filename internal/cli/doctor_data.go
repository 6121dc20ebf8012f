package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/recording/txnlog"
	"github.com/zklocks/zklocks/zkwatch"
)

// memberData is where a member keeps its data, and how much history its
// logs hold when this host can read them.
type memberData struct {
	dirs zkwatch.DataDirs
	err  error // conf not answered
	// logs is the summary of its log directory; here is false when that
	// directory is not on this host.
	logs    txnlog.Summary
	logsErr error
	here    bool
	// missing: the member is on this host, yet its log directory is not
	// found (another mount namespace, a container).
	missing bool
}

// readMemberData asks each probed member where its data is, and reads
// the logs' history of those on this host.
func readMemberData(ctx context.Context, conn *zkwatch.Conn, probes []zkwatch.Probe) []memberData {
	out := make([]memberData, len(probes))
	for i, p := range probes {
		md := &out[i]
		md.dirs, md.err = conn.MemberDataDirs(ctx, p.Member)
		if md.err != nil {
			continue
		}
		logDir := md.dirs.DataLogDir
		if logDir == "" {
			logDir = md.dirs.DataDir
		}
		if !onThisHost(ctx, p.Member) {
			continue
		}
		if st, err := os.Stat(logDir); err != nil || !st.IsDir() {
			md.missing = true
			continue
		}
		md.here = true
		md.logs, md.logsErr = txnlog.Summarize(logDir)
	}
	return out
}

func (md memberData) text() string {
	var b strings.Builder
	switch {
	case md.err != nil:
		fmt.Fprintf(&b, "  data directory     not known: conf %s\n", model.Printable(shortErrText(md.err)))
		return b.String()
	case md.dirs.DataDir == "":
		return "  data directory     not known: conf named none\n"
	}
	fmt.Fprintf(&b, "  data directory     %s (conf)", model.Printable(md.dirs.DataDir))
	if md.dirs.DataLogDir != "" && md.dirs.DataLogDir != md.dirs.DataDir {
		fmt.Fprintf(&b, ", logs in %s", model.Printable(md.dirs.DataLogDir))
	}
	b.WriteString("\n")
	switch {
	case md.missing:
		b.WriteString("  history            not found: the member is on this host, but its log directory is not here (a container's?)\n")
	case !md.here:
		b.WriteString("  history            not on this host: run zklocks doctor on the member to read its logs\n")
	case md.logsErr != nil:
		fmt.Fprintf(&b, "  history            %s\n", model.Printable(strings.TrimPrefix(md.logsErr.Error(), "txnlog: ")))
	default:
		s := md.logs
		fmt.Fprintf(&b, "  history            zxids %#x to %#x, %s to %s (%d logs, %s on disk; %d snapshots)\n",
			s.FirstZxid, s.LastZxid, s.First.Local().Format(time.DateTime), s.Last.Local().Format(time.DateTime),
			s.Logs, model.Bytes(s.LogBytes), s.Snapshots)
		if s.Note != "" {
			fmt.Fprintf(&b, "                     %s\n", model.Printable(s.Note))
		}
	}
	return b.String()
}

// dataJSON is a member's data directory in doctor --json.
type dataJSON struct {
	DataDir    string `json:"data_dir,omitempty"`
	DataLogDir string `json:"data_log_dir,omitempty"`
	Error      string `json:"error,omitempty"`
	// OnThisHost: the directory is here, and History was read from it.
	OnThisHost bool         `json:"on_this_host"`
	History    *historyJSON `json:"history,omitempty"`
}

type historyJSON struct {
	FirstZxid string    `json:"first_zxid"`
	LastZxid  string    `json:"last_zxid"`
	First     time.Time `json:"first"`
	Last      time.Time `json:"last"`
	Logs      int       `json:"logs"`
	LogBytes  int64     `json:"log_bytes"`
	Snapshots int       `json:"snapshots"`
	Note      string    `json:"note,omitempty"`
}

func (md memberData) json() *dataJSON {
	d := &dataJSON{DataDir: md.dirs.DataDir, DataLogDir: md.dirs.DataLogDir, OnThisHost: md.here}
	switch {
	case md.err != nil:
		d.Error = "conf " + shortErrText(md.err)
	case md.logsErr != nil:
		d.Error = strings.TrimPrefix(md.logsErr.Error(), "txnlog: ")
	case md.here:
		s := md.logs
		d.History = &historyJSON{FirstZxid: fmt.Sprintf("%#x", s.FirstZxid), LastZxid: fmt.Sprintf("%#x", s.LastZxid),
			First: s.First, Last: s.Last, Logs: s.Logs, LogBytes: s.LogBytes, Snapshots: s.Snapshots, Note: s.Note}
	}
	return d
}

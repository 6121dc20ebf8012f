package lockcore

import (
	"net/url"
	"regexp"
	"strings"
)

// DDLHostName turns a host id back into host:port.
func DDLHostName(id string) string {
	if s, err := url.PathUnescape(id); err == nil {
		return s
	}
	return id
}

// ddlEntry is what a task's data says.
type ddlEntry struct {
	query, initiator string
	hosts            []string
}

var ddlQuoted = regexp.MustCompile(`'((?:[^'\\]|\\.)*)'`)

func parseDDLEntry(data []byte) ddlEntry {
	var e ddlEntry
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, ": ")
		if !ok {
			continue
		}
		switch k {
		case "query":
			e.query = v
		case "initiator":
			e.initiator = v
		case "hosts":
			for _, m := range ddlQuoted.FindAllStringSubmatch(v, -1) {
				e.hosts = append(e.hosts, m[1])
			}
		}
	}
	return e
}

func ddlResult(n Node) string {
	code, msg, _ := strings.Cut(string(n.Data), "\n")
	if code == "0" {
		return "code 0"
	}
	if msg = strings.TrimSpace(msg); msg != "" {
		return "code " + code + ": " + msg
	}
	return "code " + code
}

package lockcore

import (
	"strconv"
	"strings"
)

// Name kinds of applications' own election and lock nodes.
const (
	// KindSolrElection is a SolrCloud election node:
	// <session id, signed decimal>-<node name or core node name>-n_<seq>.
	KindSolrElection NameKind = "solr-election"
	// KindAccumuloLock is an Accumulo ServiceLock node: zlock#<uuid>#<seq>
	// (2.1 on), or zlock-<seq> (1.x and 2.0).
	KindAccumuloLock NameKind = "accumulo-lock"
	// KindAccumuloFate is an Accumulo FATE table lock entry, persistent:
	// flock#<seq> (2.1, the entry in its data) or flock#<TYPE>:<fate
	// id>#<seq> (the entry in its name).
	KindAccumuloFate NameKind = "accumulo-fate"
	// KindHBaseServer is an HBase ServerName, "host,port,startcode": a
	// backup master or region server registration, not a contender,
	// though its 13-digit start code ends in ten digits.
	KindHBaseServer NameKind = "hbase-server"
)

const (
	solrSeqMark      = "-n_"
	accumuloLockHash = "zlock#"
	accumuloLockDash = "zlock-"
	accumuloFate     = "flock#"
)

// parseAppName recognises applications' node names, given the name's body
// before its sequence suffix; it reports whether it did.
func parseAppName(n *Name, body string) bool {
	switch {
	case strings.Contains(body, hbaseServerNameSeps):
		if _, ok := ParseHBaseServerName(n.Raw); ok {
			*n = Name{Raw: n.Raw, Kind: KindHBaseServer}
			return true
		}
		return false
	case strings.HasPrefix(body, accumuloFate) && strings.HasSuffix(body, "#") && !strings.HasPrefix(n.SeqText, "-"):
		n.Kind, n.Prefix = KindAccumuloFate, strings.TrimSuffix(strings.TrimPrefix(body, accumuloFate), "#")
		return true
	case body == accumuloLockDash:
		n.Kind = KindAccumuloLock
		return true
	case strings.HasPrefix(body, accumuloLockHash) && strings.HasSuffix(body, "#") && isUUID(body[len(accumuloLockHash):len(body)-1]):
		n.Kind, n.Prefix = KindAccumuloLock, body[len(accumuloLockHash):len(body)-1]
		return true
	case strings.HasPrefix(body, hiveLockPrefix):
		return parseHiveName(n, body)
	case body == mesosJSONInfo || body == mesosInfo || body == serverSetMember:
		return parseMesosName(n, body)
	case strings.HasSuffix(body, solrSeqMark):
		return parseSolrName(n, strings.TrimSuffix(body, solrSeqMark))
	}
	return false
}

// parseSolrName reads "<session>-<id>": the session id as Solr writes it,
// a Java long in decimal, negative for half of all session ids.
func parseSolrName(n *Name, head string) bool {
	digits := head
	if strings.HasPrefix(digits, "-") {
		digits = digits[1:]
	}
	dash := strings.IndexByte(digits, '-')
	if dash <= 0 || dash == len(digits)-1 || !isDecimal(digits[:dash]) {
		return false
	}
	cut := len(head) - len(digits) + dash
	id, err := strconv.ParseInt(head[:cut], 10, 64)
	if err != nil {
		return false
	}
	n.Kind, n.Prefix, n.Session, n.HasSession = KindSolrElection, head[cut+1:], id, true
	return true
}

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

// hbaseServerNames claims every body holding a ServerName's separators,
// and reads it as one when it is: a registration, not a contender.
func hbaseServerNames(n *Name, body string) bool {
	if !strings.Contains(body, hbaseServerNameSeps) {
		return false
	}
	if _, ok := ParseHBaseServerName(n.Raw); ok {
		*n = Name{Raw: n.Raw, Kind: KindHBaseServer}
	}
	return true
}

// accumuloFateNames reads flock#<seq> and flock#<TYPE>:<fate id>#<seq>.
func accumuloFateNames(n *Name, body string) bool {
	if !strings.HasPrefix(body, accumuloFate) || !strings.HasSuffix(body, "#") || strings.HasPrefix(n.SeqText, "-") {
		return false
	}
	n.Kind, n.Prefix = KindAccumuloFate, strings.TrimSuffix(strings.TrimPrefix(body, accumuloFate), "#")
	return true
}

// accumuloLockNames reads zlock#<uuid>#<seq> and zlock-<seq>.
func accumuloLockNames(n *Name, body string) bool {
	switch {
	case body == accumuloLockDash:
		n.Kind = KindAccumuloLock
		return true
	case len(body) > len(accumuloLockHash) && strings.HasPrefix(body, accumuloLockHash) && strings.HasSuffix(body, "#") && isUUID(body[len(accumuloLockHash):len(body)-1]):
		n.Kind, n.Prefix = KindAccumuloLock, body[len(accumuloLockHash):len(body)-1]
		return true
	}
	return false
}

// solrNames claims bodies ending in -n_ and reads <session>-<id>-n_.
func solrNames(n *Name, body string) bool {
	head, ok := strings.CutSuffix(body, solrSeqMark)
	if ok {
		parseSolrName(n, head)
	}
	return ok
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

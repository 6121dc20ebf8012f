package lockcore

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Decoders names the Go decoders an entry's identity can use
// ("decoder:<name>"), for data no text rule reads: binary formats and
// applications' own encodings.
func Decoders() []string {
	names := make([]string, 0, len(decoders))
	for n := range decoders {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// decoders are the named Go decoders: each names a holder from its node's
// data, or reports that the data is not in its format.
var decoders = map[string]func(data []byte) (string, bool){
	"hadoop-active": func(b []byte) (string, bool) {
		h, ok := DecodeHadoopActive(b)
		return h.String(), ok
	},
	"hbase-master": func(b []byte) (string, bool) {
		m, ok := DecodeHBaseMaster(b)
		return m.Server.String(), ok
	},
	"kafka-controller": func(b []byte) (string, bool) {
		c, ok := DecodeKafkaController(b)
		return fmt.Sprintf("broker %d", c.BrokerID), ok
	},
	"accumulo-lock": DecodeAccumuloLockData,
	"hbase-table-lock": func(b []byte) (string, bool) {
		l, ok := DecodeHBaseTableLock(b)
		return l.String(), ok
	},
}

// identityRule names a holder from its node: its name's parts and data.
type identityRule struct {
	kind  string // "", text, json, data, name, decoder
	arg   string
	field []string
	re    *regexp.Regexp
	part  part
	dec   func([]byte) (string, bool)
}

func compileIdentity(spec string, groups []part) (identityRule, error) {
	if spec == "" {
		return identityRule{}, nil
	}
	kind, arg, _ := strings.Cut(spec, ":")
	r := identityRule{kind: kind, arg: arg}
	switch kind {
	case "text":
		if arg != "" {
			return r, fmt.Errorf("text takes nothing after it, not %q", arg)
		}
	case "json":
		if arg == "" || strings.Contains(arg, "..") || strings.HasPrefix(arg, ".") || strings.HasSuffix(arg, ".") {
			return r, fmt.Errorf("json needs a field name (dotted for nesting), as json:host or json:owner.host, not %q", spec)
		}
		r.field = strings.Split(arg, ".")
	case "data":
		re, err := regexp.Compile(arg)
		if err != nil {
			return r, fmt.Errorf("data:<regexp>: %v", err)
		}
		if re.NumSubexp() < 1 {
			return r, errors.New("data:<regexp> needs a group, ( ), around the part that names the holder")
		}
		r.re = re
	case "name":
		r.part = part(arg)
		if r.part == partSeq || r.part == partMode || !slices.Contains(groups, r.part) {
			return r, fmt.Errorf("name:<part> must name {owner}, {id} or {session} of the children pattern, not %q", arg)
		}
	case "decoder":
		r.dec = decoders[arg]
		if r.dec == nil {
			return r, fmt.Errorf("no decoder %q: the decoders are %s", arg, strings.Join(Decoders(), ", "))
		}
	default:
		return r, fmt.Errorf("must be text, json:<field>, data:<regexp>, name:<part> or decoder:<name>, not %q", spec)
	}
	return r, nil
}

// identify names a holder from its name's parts and its node; empty when
// the rule is none. Data that does not read by the rule says so, escaped.
func (r identityRule) identify(vals partValues, node Node) string {
	switch r.kind {
	case "":
		return ""
	case "name":
		v, _ := vals.get(r.part)
		q := strconv.QuoteToASCII(v)
		return q[1 : len(q)-1]
	}
	if node.DataDenied || node.Pending || len(node.Data) == 0 {
		return undecoded("identity", node.Data, node.Truncated(), node.DataDenied)
	}
	switch r.kind {
	case "text":
		if utf8.Valid(node.Data) {
			return quoteData(node.Data)
		}
	case "json":
		var v any
		if json.Unmarshal(node.Data, &v) == nil {
			for _, f := range r.field {
				m, _ := v.(map[string]any)
				v = m[f]
			}
			if v != nil {
				return quoteData([]byte(fmt.Sprint(v)))
			}
		}
	case "data":
		if m := r.re.FindSubmatch(node.Data); m != nil {
			return quoteData(m[1])
		}
	case "decoder":
		if s, ok := r.dec(node.Data); ok {
			return s
		}
	}
	return undecoded("identity ("+r.kind+")", node.Data, node.Truncated(), false)
}

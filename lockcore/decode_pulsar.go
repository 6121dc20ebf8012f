package lockcore

import (
	"encoding/json"
	"net/url"
)

// PulsarOwner is what a Pulsar lock node's JSON says of the broker.
type PulsarOwner struct {
	BrokerID, ServiceURL       string // the leader's
	NativeURL, HTTPURL         string // a bundle owner's
	Disabled                   bool
	nativeURLTLS, httpURLTLS   string
	hasLeaderKeys, hasOwnerKey bool
}

// DecodePulsarOwner reads a leader or bundle node's JSON; false when it
// has neither shape.
func DecodePulsarOwner(data []byte) (PulsarOwner, bool) {
	var o struct {
		BrokerID     *string `json:"brokerId"`
		ServiceURL   *string `json:"serviceUrl"`
		NativeURL    *string `json:"nativeUrl"`
		NativeURLTLS string  `json:"nativeUrlTls"`
		HTTPURL      *string `json:"httpUrl"`
		HTTPURLTLS   string  `json:"httpUrlTls"`
		Disabled     bool    `json:"disabled"`
	}
	if json.Unmarshal(data, &o) != nil {
		return PulsarOwner{}, false
	}
	p := PulsarOwner{Disabled: o.Disabled, nativeURLTLS: o.NativeURLTLS, httpURLTLS: o.HTTPURLTLS}
	deref := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	p.BrokerID, p.ServiceURL, p.NativeURL, p.HTTPURL = deref(o.BrokerID), deref(o.ServiceURL), deref(o.NativeURL), deref(o.HTTPURL)
	p.hasLeaderKeys = o.ServiceURL != nil || o.BrokerID != nil
	p.hasOwnerKey = o.NativeURL != nil || o.HTTPURL != nil || o.NativeURLTLS != "" || o.HTTPURLTLS != ""
	return p, p.hasLeaderKeys || p.hasOwnerKey
}

func (p PulsarOwner) String() string {
	switch {
	case p.BrokerID != "" && p.ServiceURL != "":
		return "broker " + p.BrokerID + " (" + p.ServiceURL + ")"
	case p.ServiceURL != "":
		return "broker " + p.ServiceURL
	case p.BrokerID != "":
		return "broker " + p.BrokerID
	}
	native, web := firstOf(p.NativeURL, p.nativeURLTLS), firstOf(p.HTTPURL, p.httpURLTLS)
	switch {
	case native != "" && web != "":
		return "broker " + native + " (" + web + ")"
	case native != "":
		return "broker " + native
	}
	return "broker " + web
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// registration is the name the broker registers under in
// /loadbalance/brokers: its web service's host:port.
func (p PulsarOwner) registration() string {
	if p.BrokerID != "" {
		return p.BrokerID
	}
	for _, s := range []string{p.ServiceURL, p.HTTPURL, p.httpURLTLS} {
		if u, err := url.Parse(s); err == nil && u.Host != "" {
			return u.Host
		}
	}
	return ""
}

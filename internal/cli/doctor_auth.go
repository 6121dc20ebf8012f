package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// doctorAuth is what doctor found of the session's authentication: who
// the server says the session is, and whether the cluster requires
// authentication of every session.
type doctorAuth struct {
	who         zkwatch.Identities
	whoErr      error
	required    bool
	requiredErr error
	sasl        bool // the session authenticated by SASL
}

// authProbeTimeout bounds the session without credentials doctor opens.
const authProbeTimeout = 10 * time.Second

// diagnoseAuth asks whoAmI and probes for required authentication.
func diagnoseAuth(ctx context.Context, conn *zkwatch.Conn, s settings) *doctorAuth {
	d := &doctorAuth{}
	d.who, d.whoErr = conn.WhoAmI(ctx)
	pctx, cancel := context.WithTimeout(ctx, min(s.timeout, authProbeTimeout))
	defer cancel()
	d.required, d.requiredErr = conn.AuthRequired(pctx)
	d.sasl = authenticatesBySASL(s.auth)
	return d
}

// authenticatesBySASL reports whether one of the credentials makes the
// session authenticate by SASL: DIGEST-MD5 (sasl:) or Kerberos.
func authenticatesBySASL(creds []credential) bool {
	for _, c := range creds {
		if c.scheme == "sasl" || c.scheme == kerberosScheme {
			return true
		}
	}
	return false
}

// identities is the line of who the session is.
func (d *doctorAuth) identities() string {
	if d.whoErr != nil {
		return "not known: " + d.whoErr.Error()
	}
	return d.who.String() + " (" + d.who.Source() + ")"
}

// super says whether the server took the session for its super user.
func (d *doctorAuth) super() string {
	switch {
	case d.whoErr != nil:
		return "not known"
	case d.who.Super():
		return "yes (the server says so)"
	case d.who.FromServer:
		return "no"
	}
	return "not known: only whoAmI (3.7+) says"
}

// enforcement is the line of whether authentication is required.
func (d *doctorAuth) enforcement() string {
	switch {
	case d.requiredErr != nil:
		return "not known: " + d.requiredErr.Error()
	case !d.required:
		return "not required: a session without credentials may read"
	}
	meets := "this session has no SASL identity, so every request of it fails: give --auth sasl:USER:@FILE"
	if d.sasl {
		meets = "this session's SASL authentication meets it"
	}
	return "required of every session: the server closed a session without credentials " +
		"(SESSIONCLOSEDREQUIRESASLAUTH: enforce.auth.enabled, or sessionRequireClientSASLAuth); " +
		"which schemes it accepts (enforce.auth.schemes) the server does not say; " + meets
}

// writeText prints the session block of doctor's text.
func (d *doctorAuth) writeText(b *strings.Builder) {
	fmt.Fprintf(b, "this session\n")
	fmt.Fprintf(b, "  identities      %s\n", model.Printable(d.identities()))
	fmt.Fprintf(b, "  super user      %s\n", d.super())
	fmt.Fprintf(b, "  authentication  %s\n\n", model.Printable(d.enforcement()))
}

// sessionJSON is the session block of doctor --json.
type sessionJSON struct {
	Identities []string `json:"identities"`
	// Source is "whoami" or "credentials".
	Source    string `json:"identities_source"`
	Note      string `json:"identities_note,omitempty"`
	Super     *bool  `json:"super_user"`
	Required  *bool  `json:"auth_required"`
	WhyUnsure string `json:"auth_required_unknown,omitempty"`
}

func (d *doctorAuth) json() *sessionJSON {
	j := &sessionJSON{Identities: []string{}, Source: "credentials", Note: d.who.Note}
	if d.whoErr != nil {
		j.Note = d.whoErr.Error()
	}
	for _, id := range d.who.List {
		j.Identities = append(j.Identities, id.String())
	}
	if d.who.FromServer {
		j.Source = "whoami"
		super := d.who.Super()
		j.Super = &super
	}
	if d.requiredErr != nil {
		j.WhyUnsure = d.requiredErr.Error()
	} else {
		j.Required = &d.required
	}
	return j
}

// identityTimeout bounds asking who the session is, before the UI starts.
const identityTimeout = 3 * time.Second

// identityBadge is who the session is for the UI's status bar: its
// identities other than the client address (every session has one),
// "super" when the server says so, and "(credentials)" when they are not
// the server's word; "" when there is nothing to say or it cannot be
// known.
func identityBadge(conn *zkwatch.Conn, timeout time.Duration) string {
	ctx, cancel := context.WithTimeout(context.Background(), min(timeout, identityTimeout))
	defer cancel()
	who, err := conn.WhoAmI(ctx)
	if err != nil {
		return ""
	}
	var parts []string
	for _, id := range who.List {
		if id.Scheme != "ip" {
			parts = append(parts, id.String())
		}
	}
	if len(parts) == 0 {
		return ""
	}
	badge := strings.Join(parts, ", ")
	if !who.FromServer {
		badge += " (credentials)"
	}
	return badge
}

package serve

import (
	"fmt"
	"strings"
	"testing"

	"github.com/zklocks/zklocks/lockcore"
)

// A session ended because its key stopped being admitted is told why,
// without the sentinel's words.
func TestNoLongerWhy(t *testing.T) {
	plain, cert := Who{}, Who{Cert: &lockcore.Certificate{KeyID: "alice@corp"}}
	tests := []struct {
		who  Who
		err  error
		want string
	}{
		{plain, fmt.Errorf("%w: key SHA256:x is %w", errNotAdmitted, errNotListed), "your key was removed from the authorized keys"},
		{plain, fmt.Errorf("%w: key SHA256:x is %w: listed in the revoked keys", errNotAdmitted, errRevoked),
			"your key is no longer admitted: key SHA256:x is revoked: listed in the revoked keys"},
		{cert, fmt.Errorf("%w: certificate %q is %w: listed", errNotAdmitted, "alice@corp", errRevoked),
			`your certificate is no longer admitted: certificate "alice@corp" is revoked: listed`},
	}
	for _, tt := range tests {
		if got := noLongerWhy(tt.who, tt.err); got != tt.want || strings.Contains(got, "not admitted:") {
			t.Errorf("noLongerWhy(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

package apptree

import (
	"fmt"
	"testing"

	"github.com/go-zookeeper/zk"
)

// PulsarBroker is one broker's session and addresses.
type PulsarBroker struct {
	Conn *zk.Conn
	Host string // its advertised address; ports 6650 and 8080
}

func (b PulsarBroker) web() string { return fmt.Sprintf("%s:8080", b.Host) }

// PulsarRegister registers a broker as its ModularLoadManager does: an
// ephemeral /loadbalance/brokers/<host>:<web port> with its load report.
func PulsarRegister(t testing.TB, b PulsarBroker) {
	t.Helper()
	MkdirAll(t, b.Conn, "/loadbalance/brokers")
	data := fmt.Appendf(nil, `{"webServiceUrl":"http://%s","pulsarServiceUrl":"pulsar://%s:6650","cpu":{"usage":3.0,"limit":400.0},"bundles":[]}`, b.web(), b.Host)
	Create(t, b.Conn, "/loadbalance/brokers/"+b.web(), data, zk.FlagEphemeral)
}

// PulsarLead makes b the load manager's leader as LeaderElectionImpl does:
// an ephemeral /loadbalance/leader with the LeaderBroker JSON.
func PulsarLead(t testing.TB, b PulsarBroker) {
	t.Helper()
	MkdirAll(t, b.Conn, "/loadbalance")
	Create(t, b.Conn, "/loadbalance/leader", fmt.Appendf(nil, `{"brokerId":%q,"serviceUrl":"http://%s"}`, b.web(), b.web()), zk.FlagEphemeral)
}

// PulsarOwn takes a bundle's ownership as ResourceLockImpl does for the
// NamespaceService: an ephemeral /namespace/<tenant>/<ns>/<range> holding
// NamespaceEphemeralData. It returns the path.
func PulsarOwn(t testing.TB, b PulsarBroker, namespace, bundle string, disabled bool) string {
	t.Helper()
	dir := "/namespace/" + namespace
	MkdirAll(t, b.Conn, dir)
	data := fmt.Appendf(nil, `{"nativeUrl":"pulsar://%s:6650","nativeUrlTls":null,"httpUrl":"http://%s","httpUrlTls":null,"disabled":%v,"advertisedListeners":{}}`,
		b.Host, b.web(), disabled)
	return Create(t, b.Conn, dir+"/"+bundle, data, zk.FlagEphemeral)
}

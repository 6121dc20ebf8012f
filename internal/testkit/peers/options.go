package peers

// WithJVMFlags adds arguments to a Java peer's command line, before its
// main class: "-Djava.security.auth.login.config=…" with a JAAS Client
// section makes its ZooKeeper client authenticate by SASL (Kerberos with
// Krb5LoginModule and "-Djava.security.krb5.conf=…"). Other kinds ignore
// them.
func WithJVMFlags(flags ...string) Option {
	return func(o *options) { o.extraJVMFlags = append(o.extraJVMFlags, flags...) }
}

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/zkwatch"
)

// defaultServer is used when neither --server nor $ZKLOCKS_SERVER is set.
const defaultServer = "127.0.0.1:2181"

// globalFlags are the flags every subcommand shares.
type globalFlags struct {
	server         string
	timeout        time.Duration
	sessionTimeout time.Duration
}

func (g *globalFlags) register(root *cobra.Command) {
	server := os.Getenv("ZKLOCKS_SERVER")
	if server == "" {
		server = defaultServer
	}
	pf := root.PersistentFlags()
	pf.StringVarP(&g.server, "server", "s", server, "ZooKeeper connect string, host:port[,host:port...][/chroot] (env ZKLOCKS_SERVER)")
	pf.DurationVar(&g.timeout, "timeout", 10*time.Second, "how long to wait for a server to answer")
	pf.DurationVar(&g.sessionTimeout, "session-timeout", 10*time.Second, "ZooKeeper session timeout to ask for")
}

// dial connects as the flags say; failures carry the exit code to use.
func (g *globalFlags) dial(ctx context.Context) (*zkwatch.Conn, error) {
	target, err := zkwatch.ParseConnectString(g.server)
	if err != nil {
		return nil, &exitError{code: exitUsage, err: err}
	}
	if g.timeout <= 0 {
		return nil, &exitError{code: exitUsage, err: fmt.Errorf("--timeout must be positive, got %s", g.timeout)}
	}
	dialCtx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	conn, err := zkwatch.Dial(dialCtx, zkwatch.Options{Target: target, SessionTimeout: g.sessionTimeout})
	if errors.Is(err, zkwatch.ErrUnreachable) {
		return nil, &exitError{code: exitUnreachable, err: fmt.Errorf("%w (waited %s)", err, g.timeout)}
	}
	return conn, err
}

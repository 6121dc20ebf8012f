// Command zklocks inspects and operates live Apache ZooKeeper lock trees.
package main

import (
	"context"
	"os"
	"syscall"

	"github.com/zklocks/zklocks/internal/cli"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = ""

func main() {
	os.Exit(cli.ExecuteContext(cli.SignalContext(context.Background(), os.Interrupt, syscall.SIGTERM), version))
}

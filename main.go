// Command zklocks inspects and operates live Apache ZooKeeper lock trees.
package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/model"
)

// Exit codes, documented in --help.
const (
	exitOK          = 0
	exitFailed      = 1  // an error, or some paths could not be read
	exitUnreachable = 2  // no ZooKeeper server answered in time
	exitUsage       = 64 // bad flags or arguments
)

const exitCodesHelp = `Exit codes:
  0   success
  1   an error, or some of the paths could not be read
  2   no ZooKeeper server answered within --timeout
  64  bad flags or arguments`

// version is set at build time with -ldflags "-X main.version=...".
var version = ""

// exitError carries an exit code up to main.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func main() {
	root := newRootCommand()
	err := root.Execute()
	if err == nil {
		return
	}
	fmt.Fprintln(os.Stderr, "zklocks:", model.Printable(err.Error()))
	var ee *exitError
	if errors.As(err, &ee) {
		os.Exit(ee.code)
	}
	os.Exit(exitUsage)
}

func newRootCommand() *cobra.Command {
	g := &globalFlags{}
	root := &cobra.Command{
		Use:   "zklocks",
		Short: "Inspect and operate live ZooKeeper lock trees",
		Long: `zklocks shows who holds each ZooKeeper lock, who waits, in what order, and on whom,
for the trees that Curator, kazoo, go-zookeeper and ZooKeeper's own recipes write.

` + exitCodesHelp,
		Version:       versionString(),
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &exitError{code: exitUsage, err: fmt.Errorf("%w (see %s --help)", err, c.CommandPath())}
	})
	g.register(root)
	o := &operateFlags{}
	root.RunE = tuiCommand(root, g, o)
	o.register(root)
	root.AddCommand(newShowCommand(g), newLsCommand(g), newAcquireCommand(g, o), newReleaseCommand(g, o),
		newRevokeCommand(g, o), newFenceCommand(g, o))
	root.AddCommand(newDemoCommand(g, o))
	return root
}

func versionString() string {
	if version != "" {
		return version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := info.Main.Version
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " (" + s.Value[:12] + ")"
		}
	}
	return v
}

// Package cli is zklocks' command line: the root command, which opens the
// terminal UI (cmd_tui.go), and its subcommands (cmd_<name>.go: show,
// ls, explain, recipes, doctor, check, exporter, serve, record, replay,
// postmortem, acquire, release, revoke, fence, demo, config, man), their
// flags, the configuration file, the exit codes, and the wiring of
// connections, watchers, recordings and the UI.
//
// Every command is registered in newRootCommand. A command is a
// newXxxCommand(g, ...) function returning a *cobra.Command whose RunE loads
// the effective settings with g.load, and returns errors as *exitError with
// a code from exitCodes.
package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/model"
)

// ExecuteContext runs zklocks with the process's arguments, printing an
// error to stderr, and returns the exit code to end with. version is the
// build's version ("" for the module's from the build info). Commands end
// their work when ctx ends.
func ExecuteContext(ctx context.Context, version string) int {
	return execute(ctx, version, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

func execute(ctx context.Context, version string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCommand(version)
	ctx = context.WithValue(ctx, rawArgsKey{}, args)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err != nil && !isQuiet(err) {
		fmt.Fprintln(stderr, "zklocks:", model.Printable(model.Plain(err.Error())))
	}
	return exitCodeOf(err)
}

// rawArgsKey keys the command line's arguments as given in a command's
// context, for a command that must answer in the format asked for even
// when its flags fail to parse.
type rawArgsKey struct{}

// rawArgs returns the arguments execute was given, if ctx carries them.
func rawArgs(ctx context.Context) []string {
	if ctx == nil {
		return nil
	}
	args, _ := ctx.Value(rawArgsKey{}).([]string)
	return args
}

// SignalContext returns a context that ends at the first of sigs. After it
// the signals' default handling is back, so that a second one ends zklocks
// at once.
func SignalContext(parent context.Context, sigs ...os.Signal) context.Context {
	ctx, stop := signal.NotifyContext(parent, sigs...)
	go func() { <-ctx.Done(); stop() }()
	return ctx
}

// newRootCommand is zklocks' command tree: every command is registered
// here.
func newRootCommand(version string) *cobra.Command {
	g := &globalFlags{}
	o := &operateFlags{}
	root := &cobra.Command{
		Short: "Inspect and operate live ZooKeeper lock trees",
		Long: `zklocks shows who holds each ZooKeeper lock, who waits, in what order, and on whom,
for the trees that Curator, kazoo, go-zookeeper and ZooKeeper's own recipes write.

` + exitCodesHelp(),
		Version:       versionString(version),
		Use:           "zklocks [lock-path]",
		Args:          cobra.MaximumNArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &exitError{code: exitUsage, err: fmt.Errorf("%w (see %s --help)", err, c.CommandPath())}
	})
	g.register(root)
	o.register(root)
	root.RunE = tuiCommand(root, g, o)
	root.AddCommand(
		newShowCommand(g),
		newLsCommand(g),
		newAcquireCommand(g, o),
		newReleaseCommand(g, o),
		newRevokeCommand(g, o),
		newFenceCommand(g, o),
		newDemoCommand(g, o),
		newConfigCommand(g),
		newRecordCommand(g, o),
		newReplayCommand(g),
		newPostmortemCommand(g),
		newCheckCommand(g),
		newExporterCommand(g, o),
		newServeCommand(g, o),
		newManCommand(),
		newDoctorCommand(g),
		newRecipesCommand(g),
		newExplainCommand(g),
	)
	return root
}

// versionString is version, or the module's version and VCS revision from
// the build info.
func versionString(version string) string {
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

package cli

import (
	"context"
	"errors"
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"
	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/model/fleet"
	"github.com/zklocks/zklocks/ui"
)

// fleetRun is what the UI's runs share of the fleet screen: one Poller
// for the whole of zklocks' life, started at the first look, so that a
// cluster opened from the fleet screen and closed again finds its rows
// there still; and how the next run starts.
type fleetRun struct {
	// source is every context's last poll; nil when there is no fleet,
	// and noFleet then says why.
	source  ui.FleetSource
	noFleet string
	// only: the next run shows the fleet screen alone, no cluster open.
	only bool
	// switched: the next run's context was switched to from the UI.
	switched bool
	// message is said at the next run's start.
	message string
}

// newFleetRun makes the fleet's Poller, which polls nothing until the
// fleet screen is first shown.
func newFleetRun(cmd *cobra.Command, g *globalFlags, f *tuiFlags) (*fleetRun, error) {
	s, err := g.load()
	if err != nil {
		return nil, err
	}
	fr := &fleetRun{}
	names := s.file.names()
	switch {
	case s.given("server"):
		fr.noFleet = "--server is given, and wins over every context"
	case len(names) == 0:
		fr.noFleet = "it lists the config file's contexts, and " + s.file.path + " defines none (see zklocks config --help)"
	case f.fleetInterval <= 0:
		return nil, &exitError{code: exitUsage, err: errors.New("--fleet-interval must be positive")}
	default:
		p := fleet.NewPoller(names, fleetProbe(g, contextThresholds, false), f.fleetInterval)
		fr.source = fleetSource{Poller: p, ctx: cmd.Context()}
	}
	if f.fleet {
		switch {
		case fr.source == nil:
			return nil, &exitError{code: exitUsage, err: errors.New("--fleet: " + fr.noFleet)}
		case f.open != "":
			return nil, &exitError{code: exitUsage, err: errors.New("--fleet starts with no cluster open: it cannot open a lock's path too")}
		case f.record.out != "":
			return nil, &exitError{code: exitUsage, err: errors.New("--fleet and --record exclude each other: a recording holds one cluster")}
		}
		fr.only = true
	}
	return fr, nil
}

// options gives a cluster's UI the fleet screen.
func (fr *fleetRun) options(opt *ui.Options) {
	opt.Fleet, opt.NoFleet, opt.Message = fr.source, fr.noFleet, fr.message
	opt.FromFleet = fr.switched && fr.source != nil && fr.source.Started()
}

// runFleetOnly runs the UI with the fleet screen alone, no cluster open
// (--fleet, or a cluster the fleet screen could not connect to); it
// returns the context to open, or "" when the operator quit.
func runFleetOnly(cmd *cobra.Command, s settings, fr *fleetRun, mouse bool) (string, error) {
	var next string
	opt := ui.Options{Fleet: fr.source, FleetOnly: true, Message: fr.message, ReadOnly: s.readOnly,
		Profile:  ui.ProfileFromEnv(termenv.NewOutput(os.Stdout).EnvColorProfile()),
		Copy:     termenv.NewOutput(os.Stdout).Copy,
		Contexts: s.file.names(), SwitchContext: func(name string) { next = name }}
	progOpts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithContext(cmd.Context()), tea.WithFPS(uiFPS)}
	if mouse {
		progOpts = append(progOpts, tea.WithMouseCellMotion())
	}
	_, err := tea.NewProgram(ui.New(opt), progOpts...).Run()
	return next, programError(err)
}

// fleetSource is a Poller as the UI uses it: Start polls until zklocks
// ends.
type fleetSource struct {
	*fleet.Poller
	ctx context.Context
}

func (f fleetSource) Start() { f.Poller.Start(f.ctx) }

package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/go-zookeeper/zk"
	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

func newExplainCommand(g *globalFlags) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "explain [flags] PATH",
		Short: "Say which rule book entry reads a lock, why, and what is assumed",
		Long: `explain reads the lock at PATH once and says how zklocks reads it: which entry of the
rule book describes it (zklocks recipes lists them) and why, which other entries came
close and what did not match, and what was assumed rather than known when no entry
describes it for certain. It then lists the contenders as read: role, mode and the node
each waiter watches by the entry's rule (not the servers' watch table: zklocks show
has that).

` + exitCodesHelp(),
		Example: `  zklocks explain /locks/orders
  zklocks explain --json /acme/orders`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return &exitError{code: exitUsage, err: fmt.Errorf("explain needs one PATH, got %d (see zklocks explain --help)", len(args))}
			}
			return paths(args, "")
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			s, conn, err := g.connect(cmd.Context())
			if err != nil {
				return err
			}
			defer conn.Close()
			ctx, cancel := context.WithTimeout(cmd.Context(), s.timeout)
			t, err := conn.ReadTree(ctx, args[0])
			cancel()
			if err != nil {
				return &exitError{code: exitFailed, err: err}
			}
			x, l := explain(t, s.book)
			if !freeLock(t, l, s.book) {
				return &exitError{code: exitFailed, err: fmt.Errorf("%s: %w", t.Path, zk.ErrNoNode)}
			}
			return write(cmd, asJSON, func(w io.Writer) error { return writeExplainJSON(w, x, l) },
				func(w io.Writer) error { return writeExplainText(w, x, l) })
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON for scripts")
	return cmd
}

// explain analyses t by book, by the recipes' rules, and explains it.
func explain(t lockcore.Tree, book *lockcore.Book) (lockcore.Explanation, lockcore.Lock) {
	l := lockcore.Analyze(t, nil, lockcore.Options{Book: book})
	return book.Explain(t, l), l
}

// writeExplainText writes an explanation for people; every name and datum
// escaped.
func writeExplainText(w io.Writer, x lockcore.Explanation, l lockcore.Lock) error {
	p := model.Printable
	fmt.Fprintf(w, "%s  %s\n", p(x.Path), x.Recipe)
	if x.Entry != nil {
		fmt.Fprintf(w, "\nentry: %s\n", p(x.Entry.Name))
		writeEntryText(w, *x.Entry, "  ")
	} else {
		fmt.Fprintln(w, "\nentry: none")
	}
	fmt.Fprintln(w, "\nwhy:")
	for _, why := range x.Why {
		fmt.Fprintf(w, "  - %s\n", p(why))
	}
	if len(x.Assumed) > 0 {
		fmt.Fprintln(w, "\nassumed, not known:")
		for _, a := range x.Assumed {
			fmt.Fprintf(w, "  ? %s\n", p(a))
		}
	}
	if len(x.Near) > 0 {
		fmt.Fprintln(w, "\ncame close:")
		for _, n := range x.Near {
			fmt.Fprintf(w, "  - %s: %s\n", p(n.Entry.Name), p(n.WhyNot))
		}
	}
	fmt.Fprintf(w, "\ncontenders as read (%d holding, %d waiting):\n", l.Holders(), l.Waiters())
	if len(l.Participants) == 0 {
		fmt.Fprintln(w, "  none")
	}
	for _, c := range l.Participants {
		on := ""
		if c.Watches != nil {
			on = "  waits on " + model.ShortNode(c.Watches.Node)
		}
		id := ""
		if c.Identity != "" {
			id = "  " + p(c.Identity)
		}
		fmt.Fprintf(w, "  #%d %-6s %-9s %s%s%s\n", c.Position, c.Role, c.Mode, model.ShortNode(c.Node), on, id)
	}
	for _, a := range l.Anomalies {
		fmt.Fprintf(w, "! %s %s: %s\n", a.Kind, model.ShortNode(a.Node), p(a.Detail))
	}
	return nil
}

type explainJSON struct {
	Path    string          `json:"path"`
	Recipe  string          `json:"recipe"`
	Entry   *lockcore.Entry `json:"entry"`
	Why     []string        `json:"why"`
	Assumed []string        `json:"assumed"`
	Near    []nearJSON      `json:"near"`
	Holders int             `json:"holders"`
	Waiters int             `json:"waiters"`
}

type nearJSON struct {
	Entry  string `json:"entry"`
	WhyNot string `json:"why_not"`
}

// writeExplainJSON writes an explanation for scripts.
func writeExplainJSON(w io.Writer, x lockcore.Explanation, l lockcore.Lock) error {
	j := explainJSON{Path: x.Path, Recipe: string(x.Recipe), Entry: x.Entry, Why: x.Why, Assumed: x.Assumed,
		Near: []nearJSON{}, Holders: l.Holders(), Waiters: l.Waiters()}
	if j.Assumed == nil {
		j.Assumed = []string{}
	}
	for _, n := range x.Near {
		j.Near = append(j.Near, nearJSON{Entry: n.Entry.Name, WhyNot: n.WhyNot})
	}
	out, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(model.EscapeJSONBidi(out), '\n'))
	return err
}

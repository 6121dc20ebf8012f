package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

func newRecipesCommand(g *globalFlags) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "recipes",
		Short: "List every lock shape zklocks understands: the rule book",
		Long: `recipes lists the rule book: every entry zklocks reads locks by, yours first (from the
config file's recipes, the current context's before the global ones), then the built-in
ones. Each entry says where it applies (path patterns, or the children's shape), how its
contenders are named, its grant rule and how its waiters wait. A lock no entry describes
is read by a fallback rule and shown as assumed. docs/rulebook.md describes the format;
zklocks explain PATH says which entry reads a given lock, and why.

` + exitCodesHelp(),
		Example: `  zklocks recipes
  zklocks recipes --json
  zklocks recipes --context prod`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := g.load()
			if err != nil {
				return err
			}
			b := s.book
			return write(cmd, asJSON, func(w io.Writer) error { return writeRecipesJSON(w, b) },
				func(w io.Writer) error { return writeRecipesText(w, b) })
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON for scripts")
	return cmd
}

// writeRecipesText lists the entries, one block each.
func writeRecipesText(w io.Writer, b *lockcore.Book) error {
	entries := b.Entries()
	user := b.UserEntries()
	fmt.Fprintf(w, "%d entries: %d yours, %d built-in\n", len(entries), user, len(entries)-user)
	for i, e := range entries {
		if i == 0 && user > 0 {
			fmt.Fprintln(w, "\nyours (read before the built-in ones):")
		}
		if i == user {
			fmt.Fprintln(w, "\nbuilt-in:")
		}
		writeEntryText(w, e, "  ")
	}
	fmt.Fprintf(w, "\ndecoders for identity: decoder:<name>: %s\n", strings.Join(lockcore.Decoders(), ", "))
	_, err := fmt.Fprintln(w, "a lock no entry describes is read by the fallback rule, and shown as assumed")
	return err
}

// writeEntryText writes one entry: its name and grant, then a line a field.
func writeEntryText(w io.Writer, e lockcore.Entry, indent string) {
	fmt.Fprintf(w, "%s%s  %s\n", indent, model.Printable(e.Name), e.Grant)
	line := func(k, v string) {
		if v != "" {
			fmt.Fprintf(w, "%s    %-9s %s\n", indent, k, model.Printable(v))
		}
	}
	line("about", e.About)
	where := "any node whose children all match"
	if slices.Contains(e.Hooks, "shape") {
		where = "any node its shape hook takes"
	}
	if len(e.Paths) > 0 {
		where = strings.Join(e.Paths, " ")
	}
	line("where", where)
	line("children", e.Children)
	var modes []string
	for _, word := range sortedKeys(e.Modes) {
		modes = append(modes, word+"="+string(e.Modes[word]))
	}
	line("modes", strings.Join(modes, " "))
	wait := string(e.Waits)
	if e.ReadWaitsOn != "" {
		wait += ", a reader on the " + string(e.ReadWaitsOn)
	}
	line("waits", wait)
	if e.Grant != lockcore.GrantSingleNode && e.Grant != lockcore.GrantCoHolding {
		line("order", string(e.Order))
	}
	line("limit", e.Limit)
	line("identity", e.Identity)
	if e.Persistent {
		line("nodes", "may be persistent by design")
	}
	line("hooks", strings.Join(e.Hooks, ", "))
	line("from", e.Source)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// writeRecipesJSON writes the entries as a JSON array, yours first.
func writeRecipesJSON(w io.Writer, b *lockcore.Book) error {
	out, err := json.MarshalIndent(struct {
		Entries  []lockcore.Entry `json:"entries"`
		Yours    int              `json:"yours"`
		Decoders []string         `json:"decoders"`
	}{b.Entries(), b.UserEntries(), lockcore.Decoders()}, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(model.EscapeJSONBidi(out), '\n'))
	return err
}

package cli

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

func newManCommand() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "man [--dir DIR]",
		Short: "Print zklocks' man page, made from its commands' help",
		Long: `man prints the zklocks(1) man page, in roff, made from the same help as --help: its
description, flags and examples, and in SEE ALSO one page per command (zklocks-show(1), …).
With --dir it writes every page (zklocks.1, zklocks-show.1, …) into DIR instead.

The date in the pages is today's, or $SOURCE_DATE_EPOCH's for a reproducible build.

` + exitCodesHelp(),
		Example: `  zklocks man | man -l -
  zklocks man --dir /usr/local/share/man/man1 && mandb`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			header, err := manHeader(cmd.Root().Version)
			if err != nil {
				return &exitError{code: exitFailed, err: err}
			}
			root := cmd.Root()
			root.DisableAutoGenTag = true
			if dir == "" {
				return doc.GenMan(root, header, cmd.OutOrStdout())
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return &exitError{code: exitFailed, err: fmt.Errorf("man: %w", err)}
			}
			if err := doc.GenManTree(root, header, dir); err != nil {
				return &exitError{code: exitFailed, err: fmt.Errorf("man: %w", err)}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "write one page per command into `DIR` instead of printing zklocks(1)")
	return cmd
}

// manHeader is the pages' .TH line: section 1, this version, dated today
// or at $SOURCE_DATE_EPOCH.
func manHeader(version string) (*doc.GenManHeader, error) {
	date := time.Now()
	if epoch := os.Getenv("SOURCE_DATE_EPOCH"); epoch != "" {
		secs, err := strconv.ParseInt(epoch, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("man: SOURCE_DATE_EPOCH %q is not a number of seconds", epoch)
		}
		date = time.Unix(secs, 0).UTC()
	}
	return &doc.GenManHeader{Title: "ZKLOCKS", Section: "1", Date: &date, Source: "zklocks " + version,
		Manual: "zklocks manual"}, nil
}

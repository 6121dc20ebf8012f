package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"
)

func main() {
	count := flag.Int("count", 3, "runs of each test (go test -count)")
	spinners := flag.Int("load", runtime.NumCPU(), "busy goroutines spinning while the tests run (0: none)")
	loadFor := flag.Duration("load-for", 2*time.Hour, "the longest the load may last")
	raw := flag.String("raw", "", "a file to keep go test's whole -json output in, for a failure's every line")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: flakes [-count N] [-load N] [-load-for D] [-raw FILE] -- go test arguments")
		flag.PrintDefaults()
	}
	flag.Parse()
	os.Exit(run(*count, *spinners, *loadFor, *raw, flag.Args()))
}

// run runs go test under load and prints what failed; its exit code is 1
// when a test failed, 2 when go test could not be run.
func run(count, spinners int, loadFor time.Duration, raw string, testArgs []string) int {
	ctx, stopSignals := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stopSignals()

	args := append([]string{"test", "-json", fmt.Sprintf("-count=%d", count)}, testArgs...)
	cmd := exec.CommandContext(ctx, "go", args...)
	// go test stops its test binaries when interrupted; killed, it would
	// leave them (and their ZooKeeper servers) running.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = time.Minute
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "flakes:", err)
		return 2
	}

	loadBefore := loadAverage()
	started := time.Now()
	stopLoad := spin(ctx, spinners, loadFor)
	defer stopLoad()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "flakes:", err)
		return 2
	}
	var in io.Reader = out
	if raw != "" {
		f, err := os.Create(raw)
		if err != nil {
			fmt.Fprintln(os.Stderr, "flakes:", err)
			return 2
		}
		defer f.Close()
		in = io.TeeReader(out, f)
	}
	r := newReport()
	readErr := r.read(in)
	waitErr := cmd.Wait()
	stopLoad()

	r.print(os.Stdout)
	failed := r.failed()
	fmt.Fprintf(os.Stderr, "flakes: go %s: %d busy goroutines, %s, load average %s before, %s after: %d tests failed at least once\n",
		strings.Join(args, " "), spinners, time.Since(started).Round(time.Second), loadBefore, loadAverage(), len(failed))
	switch {
	case readErr != nil:
		fmt.Fprintln(os.Stderr, "flakes: reading go test's output:", readErr)
		return 2
	case len(failed) > 0:
		return 1
	case waitErr != nil:
		// go test failed and said nothing a test could be blamed for.
		fmt.Fprintln(os.Stderr, "flakes: go test:", waitErr)
		return 2
	}
	return 0
}

// loadAverage is the machine's one-minute load average, or "?" where
// /proc/loadavg cannot be read.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	fields := strings.Fields(string(b))
	if len(fields) == 0 {
		return "?"
	}
	return fields[0]
}

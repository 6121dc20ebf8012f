package zkserver

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// tempPrefix starts the name of every temporary directory this package
// makes; the owner's process id follows.
const tempPrefix = "zklocks-zk-"

// SweepStale removes the temporary server directories in dir (normally
// os.TempDir()) whose owning process has ended: what is left when an owner
// is killed outright, since only a live process can remove its files. The
// JVMs of such owners were killed with them (on Linux). Start calls it
// before making a new directory; errors are ignored, as a directory that
// cannot be removed now may be removed by a later sweep. It returns the
// directories removed.
func SweepStale(dir string) []string {
	matches, _ := filepath.Glob(filepath.Join(dir, tempPrefix+"*"))
	var removed []string
	for _, m := range matches {
		rest := strings.TrimPrefix(filepath.Base(m), tempPrefix)
		pidText, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() || alive(pid) {
			continue
		}
		if os.RemoveAll(m) == nil {
			removed = append(removed, m)
		}
	}
	return removed
}

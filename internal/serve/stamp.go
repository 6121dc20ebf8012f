package serve

import (
	"os"
	"syscall"
)

// stampOf is what tells a file's versions apart without reading it: an
// editor that writes a new file and renames it over the old one changes
// its inode, one that writes in place its size or time.
func stampOf(path string) (fileStamp, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{}, err
	}
	st := fileStamp{size: fi.Size(), mtime: fi.ModTime()}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.ino = sys.Ino
	}
	return st, nil
}

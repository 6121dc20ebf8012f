package cli

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/zklocks/zklocks/ui"
)

// uiState is what the terminal UI remembers between runs, kept in
// $XDG_STATE_HOME/zklocks/ui.json (~/.local/state/zklocks/ui.json): state
// the operator chose by using the UI, not configuration, so it lives
// apart from the config file.
type uiState struct {
	// Sort is the locks list's order the operator last picked.
	Sort string `json:"sort,omitempty"`
}

// uiStatePath is where uiState is kept; "" when there is no home to
// keep it in.
func uiStatePath() string {
	p, err := xdgPath("XDG_STATE_HOME", filepath.Join(".local", "state"), "ui.json")
	if err != nil {
		return ""
	}
	return p
}

// loadUIState reads the state at path. A file that is missing or does
// not parse is the zero state: it only spares the operator a key press,
// and the next change writes it again.
func loadUIState(path string) uiState {
	var st uiState
	if path == "" {
		return st
	}
	b, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(b, &st) != nil {
		return uiState{}
	}
	return st
}

// saveUIState writes the state at path whole, through a file renamed into
// place, so that two UIs ending at once leave one of their states, never
// a mix.
func saveUIState(path string, st uiState) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".ui-*.json")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// rememberSort makes opt begin with the sort order the operator last
// picked and remember each one picked. A state that cannot be written is
// not worth interrupting the UI for: the order is then not remembered.
func rememberSort(opt *ui.Options) {
	path := uiStatePath()
	if path == "" {
		return
	}
	opt.Sort = loadUIState(path).Sort
	opt.SortChanged = func(order string) {
		st := loadUIState(path)
		st.Sort = order
		_ = saveUIState(path, st)
	}
}

// Package guard ships collvet's runtime guard: collvet_guard.py, a pure
// Python module (it needs only torch) that wraps torch.distributed's
// collective and point-to-point calls at run time, records which thread
// issued each call on which process group, and reports the hazards the
// static rules predict (CV101, CV102, CV103) with the same codes. The file
// is embedded in the collvet binary; `collvet guard --write DIR` writes it
// next to a training script.
//
// The package's tests also hold the runtime witness: fixture programs in
// testdata/witness run as two gloo ranks under the guard, and what they did
// is compared with the static model (`collvet debug contexts`).
package guard

import (
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/collvet/collvet/cmd/collvet/internal/atomicfile"
)

// FileName is the name of the guard module on disk (import collvet_guard).
const FileName = "collvet_guard.py"

//go:embed collvet_guard.py
var source []byte

// Source returns the guard module's Python source.
func Source() []byte {
	out := make([]byte, len(source))
	copy(out, source)
	return out
}

// Write writes the guard module into dir (which must exist) and returns the
// file's path. An existing file of the same name is replaced.
func Write(dir string) (string, error) {
	if dir == "" {
		return "", errors.New("no directory given")
	}
	st, err := os.Stat(dir)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return "", fmt.Errorf("%s is not a directory", dir)
	}
	path := filepath.Join(dir, FileName)
	// Write beside the target and rename, so an interrupted write never
	// leaves half a module that Python would import.
	if err := atomicfile.Write(path, source, 0o644, nil); err != nil {
		return "", err
	}
	return path, nil
}

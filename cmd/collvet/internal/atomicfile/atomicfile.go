// Package atomicfile writes files whole or not at all: the data goes to a
// temporary file beside the target, which is synced and renamed over it,
// so an interrupted run never leaves half a file (a half-fixed source, half
// a SARIF report, half a Python module that would then be imported).
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write replaces path with data, with permissions mode. When check is
// not nil it runs after the data is on disk and before the rename; an
// error from it abandons the write (the target is left as it was) and is
// returned.
func Write(path string, data []byte, mode os.FileMode, check func() error) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".collvet-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	fail := func(e error) error {
		tmp.Close()
		os.Remove(name)
		return e
	}
	if _, err := tmp.Write(data); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(mode); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if check != nil {
		if err := check(); err != nil {
			os.Remove(name)
			return err
		}
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return err
	}
	return nil
}

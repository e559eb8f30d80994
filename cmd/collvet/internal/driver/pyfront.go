package driver

import (
	"context"

	"github.com/collvet/collvet/pyfront"
)

// The Python front end: pyfront.Load, behind PythonFrontend so tests can
// inject synthetic programs.
func init() { PythonFrontend = loadPython }

func loadPython(ctx context.Context, paths []string, o PyOptions) (*PyResult, error) {
	cache, _ := o.Cache.(*pyfront.Cache)
	r, err := pyfront.Load(paths, pyfront.Options{
		Tables: o.Tables, Overlay: o.Overlay, Exclude: o.Exclude, Jobs: o.Jobs, Cache: cache, Pretouch: o.Pretouch, Context: ctx,
	})
	if err != nil {
		return nil, err
	}
	out := &PyResult{Program: r.Program, Files: r.Files, Bytes: r.Bytes, Lines: r.Lines}
	for _, e := range r.Errors {
		out.Errors = append(out.Errors, FileError(e))
	}
	return out, nil
}

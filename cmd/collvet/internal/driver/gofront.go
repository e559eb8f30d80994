package driver

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/collvet/collvet/analyzers/collvet"
	"github.com/collvet/collvet/analyzers/load"
	"github.com/collvet/collvet/rules"
)

// The Go front end: analyzers/load (go/packages + the lowering analyzer),
// and the Go-only checks of analyzers/collvet (which also registers the
// Go rules, CV105).
func init() {
	GoFrontend = loadGo
	GoChecks = collvet.Extra
}

func loadGo(ctx context.Context, patterns []string, dir string, o GoOptions) (*rules.Program, []FileError, error) {
	overlay := map[string][]byte{}
	for p, b := range o.Overlay {
		if strings.HasSuffix(p, ".go") {
			if abs, err := filepath.Abs(p); err == nil {
				overlay[abs] = b
			}
		}
	}
	// Base ".": model paths relative to the working directory, like the
	// Python front end's, whatever directory the packages load from.
	var flags []string
	if len(o.Tags) > 0 {
		flags = append(flags, "-tags="+strings.Join(o.Tags, ","))
	}
	prog, errs := load.LoadWith(patterns, dir, load.Options{Context: ctx, Tables: o.Tables, Overlay: overlay, Base: ".", Tests: o.Tests, BuildFlags: flags})
	var out []FileError
	for _, e := range errs {
		out = append(out, goError(e))
	}
	return prog, out, nil
}

// goError turns a go/packages error into a FileError: parse errors are
// syntax errors (CV000); type and list errors say why a package was not
// (fully) analysed.
func goError(err error) FileError {
	var pe packages.Error
	if !errors.As(err, &pe) {
		return FileError{Msg: err.Error(), Kind: "skipped"}
	}
	fe := FileError{Msg: pe.Msg, Kind: "skipped"}
	switch pe.Kind {
	case packages.ParseError:
		fe.Kind = "syntax"
	case packages.TypeError:
		// The package is still lowered and checked, with the types
		// that could be resolved: its findings may be incomplete.
		fe.Kind = "incomplete"
	}
	// Pos is "file:line:col", "file:line" or "-".
	parts := strings.Split(pe.Pos, ":")
	nums := 0
	for i := len(parts) - 1; i > 0 && nums < 2; i-- {
		if _, err := strconv.Atoi(parts[i]); err != nil {
			break
		}
		nums++
	}
	fe.Path = strings.Join(parts[:len(parts)-nums], ":")
	if nums >= 1 {
		fe.Line, _ = strconv.Atoi(parts[len(parts)-nums])
	}
	if nums == 2 {
		fe.Col, _ = strconv.Atoi(parts[len(parts)-1])
	}
	if fe.Path == "-" || fe.Path == "" {
		fe.Path = "."
	}
	// Paths as the rest of the report has them: relative to the working
	// directory when inside it.
	if filepath.IsAbs(fe.Path) {
		if wd, err := filepath.Abs("."); err == nil {
			if r, err := filepath.Rel(wd, fe.Path); err == nil && !strings.HasPrefix(r, "..") {
				fe.Path = r
			}
		}
	}
	return fe
}

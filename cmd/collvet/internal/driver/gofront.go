package driver

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/collvet/collvet/analyzers/collvet"
	"github.com/collvet/collvet/analyzers/load"
	"github.com/collvet/collvet/rules"
)

// The Go front end: analyzers/load (go/packages + the builder analyzer
// with facts), and the checks only it can make (collvet.Extra).
func init() {
	GoFrontend = loadGo
	GoChecks = collvet.Extra
}

func loadGo(ctx context.Context, patterns []string, dir string, jobs int) (*rules.Program, []FileError, error) {
	prog, errs := load.LoadWith(patterns, dir, load.Options{Context: ctx})
	var out []FileError
	for _, e := range errs {
		out = append(out, goFileError(e))
	}
	return prog, out, nil
}

// goFileError maps a go/packages error ("file:line:col: msg") to a
// FileError; syntax errors count as parse errors.
func goFileError(err error) FileError {
	var pe packages.Error
	if !errors.As(err, &pe) {
		return FileError{Msg: err.Error(), Kind: "skipped"}
	}
	fe := FileError{Msg: pe.Msg, Kind: "skipped"}
	if pe.Kind == packages.ParseError {
		fe.Kind = "syntax"
	}
	parts := strings.Split(pe.Pos, ":")
	fe.Path = pe.Pos
	if len(parts) >= 3 {
		if l, err1 := strconv.Atoi(parts[len(parts)-2]); err1 == nil {
			if c, err2 := strconv.Atoi(parts[len(parts)-1]); err2 == nil {
				fe.Path, fe.Line, fe.Col = strings.Join(parts[:len(parts)-2], ":"), l, c
			}
		}
	} else if len(parts) == 2 {
		if l, err1 := strconv.Atoi(parts[1]); err1 == nil {
			fe.Path, fe.Line = parts[0], l
		}
	}
	if fe.Path == "" || fe.Path == "-" {
		fe.Path = "."
	}
	return fe
}

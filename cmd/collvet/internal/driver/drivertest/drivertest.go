// Package drivertest supports tests of the driver, the output formats and
// the check command without depending on the evolving rule set: a test-only
// rule (CV990, which flags every `all_reduce(` call and offers a fix) and a
// small Python front end (directory walk + pyfront's parser, no model)
// installed in driver.PythonFrontend when the real one is not wired.
//
// Only tests import it.
package drivertest

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/collvet/collvet/cmd/collvet/internal/driver"
	"github.com/collvet/collvet/pyfront/parser"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/textpos"
)

// RuleCode is the test rule's code.
const RuleCode = "CV990"

var once sync.Once

// Rule flags `all_reduce(` calls. It exists only in test binaries.
var Rule *rules.Rule

// Install registers the test rule and makes Rules return only it plus the
// driver's own codes, and installs the small front end. It returns a
// function restoring the previous front end and rule list.
func Install() (restore func()) {
	once.Do(func() {
		Rule = rules.Register(&rules.Rule{
			Code: RuleCode, Name: "test-all-reduce", Severity: rules.Error, HasFix: true,
			Doc: rules.Doc{Title: "test rule: every all_reduce call", What: "Flags `all_reduce(` calls (tests only).",
				Why: "Tests need a rule that does not change.", Example: "dist.all_reduce(t)",
				UseInstead: "torch.autograd.set_multithreading_enabled(False)\ndist.all_reduce(t)",
				FixSafety:  "Inserts a line before the statement.", Since: "0.1.0"},
			Run: run,
		})
	})
	oldFront, oldRules := driver.PythonFrontend, driver.Rules
	driver.PythonFrontend = Frontend
	driver.Rules = func() []*rules.Rule {
		return []*rules.Rule{driver.SyntaxError, driver.InvalidSuppression, driver.UnusedSuppression, Rule}
	}
	return func() { driver.PythonFrontend, driver.Rules = oldFront, oldRules }
}

var callRE = regexp.MustCompile(`all_reduce\(`)

func run(p *rules.Pass) {
	for _, f := range p.Prog.Files {
		m := textpos.New(f.Src)
		for _, loc := range callRE.FindAllIndex(f.Src, -1) {
			line, col := m.Position(loc[0])
			text := string(m.Line(line))
			if strings.HasPrefix(strings.TrimSpace(text), "#") {
				continue
			}
			indent := text[:len(text)-len(strings.TrimLeft(text, " \t"))]
			p.Report(rules.Diagnostic{
				Pos:     rules.Pos{Path: f.Path, Line: line, Col: col, EndLine: line, EndCol: col + len("all_reduce")},
				Message: "all_reduce called here",
				Related: []rules.Related{{Pos: rules.Pos{Path: f.Path, Line: 1, Col: 1}, Message: "module starts here"}},
				Fixes: []rules.Fix{{Title: "Disable autograd multithreading first", Edits: []rules.Edit{{
					Pos:     rules.Pos{Path: f.Path, Line: line, Col: 1, EndLine: line, EndCol: 1},
					NewText: indent + "torch.autograd.set_multithreading_enabled(False)\n",
				}}}},
			})
		}
	}
}

// MaxBytes is the front end's file size limit (pyfront's MaxFileSize).
const MaxBytes = 20 << 20

// Frontend walks the paths (honouring Exclude, never for explicit paths),
// parses .py files with pyfront's parser and returns files and errors.
func Frontend(ctx context.Context, paths []string, opts driver.PyOptions) (*driver.PyResult, error) {
	res := &driver.PyResult{Program: &rules.Program{}}
	var files []string
	for _, p := range paths {
		if _, ok := opts.Overlay[p]; ok {
			files = append(files, p)
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			files = append(files, p)
			continue
		}
		filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				res.Errors = append(res.Errors, driver.FileError{Path: path, Msg: err.Error(), Kind: "read"})
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if path != p && opts.Exclude != nil && opts.Exclude(path, d.IsDir()) {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if !d.IsDir() && d.Type().IsRegular() && strings.HasSuffix(path, ".py") {
				files = append(files, path)
			}
			return nil
		})
	}
	sort.Strings(files)
	for _, path := range files {
		src, ok := opts.Overlay[path]
		if !ok {
			fi, err := os.Stat(path)
			if err == nil && fi.Size() > MaxBytes {
				res.Errors = append(res.Errors, driver.FileError{Path: path, Msg: "file too large", Kind: "too-large"})
				continue
			}
			if src, err = os.ReadFile(path); err != nil {
				res.Errors = append(res.Errors, driver.FileError{Path: path, Msg: err.Error(), Kind: "read"})
				continue
			}
		}
		if bytes.IndexByte(src, 0) >= 0 && !utf8.Valid(src) {
			res.Errors = append(res.Errors, driver.FileError{Path: path, Msg: "binary file", Kind: "binary"})
			continue
		}
		f, errs := parser.Parse(path, src, parser.Options{})
		res.Files++
		res.Bytes += int64(len(src))
		res.Lines += bytes.Count(src, []byte("\n"))
		if len(errs) > 0 {
			kind := "syntax"
			if f.Src == nil {
				kind = "decode"
			}
			res.Errors = append(res.Errors, driver.FileError{Path: path, Line: errs[0].Line, Col: errs[0].Col + 1, Msg: errs[0].Msg, Kind: kind})
		}
		text := f.Src
		if text == nil {
			continue
		}
		res.Program.Files = append(res.Program.Files, &rules.File{Path: path, Lang: rules.Python, Src: text})
	}
	return res, nil
}

// Package collvet defines the reporting analyzer of collvet's Go front end:
// it runs collvet's rules over the model that analyzers/lower builds for a
// package and reports their findings as go/analysis diagnostics, so the
// same checks run under collvet's CLI, `go vet -vettool=$(which collvet)`,
// golangci-lint module plugins and nogo.
//
// Each diagnostic's Category is the rule code (CV101) and its message is
// the CLI's text line without the position: "CV101 message [rule-name]".
// Related locations and fixes in other packages (known only through facts)
// are dropped; the finding itself always lies in the analysed package.
// Inline suppressions `//collvet:ignore CV101 reason` (on the line, or
// alone on the line before) are honoured, as in the CLI.
package collvet

import (
	"bytes"
	"go/token"
	"os"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/collvet/collvet/analyzers/lower"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"

	// Every rule: they read only the model; Python-only rules find
	// nothing in a Go model.
	_ "github.com/collvet/collvet/rules/all"
)

// Analyzer reports collvet's findings with the embedded API tables.
var Analyzer = newAnalyzer(lower.Analyzer)

// New returns a reporting analyzer (and its own builder) that use tables,
// for drivers that extend the tables from configuration.
func New(tables *api.Tables) *analysis.Analyzer { return newAnalyzer(lower.New(tables)) }

func newAnalyzer(low *analysis.Analyzer) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name: "collvet",
		Doc: "report collective-communication hazards in Go code that drives NCCL, MPI or CUDA\n\n" +
			"collvet finds collectives issued on one communicator from several goroutines, " +
			"communicators driven from several goroutines, MPI calls from goroutines below " +
			"MPI_THREAD_MULTIPLE, goroutines that call CUDA/NCCL/MPI without runtime.LockOSThread, " +
			"communicators used on several streams and MPI requests never waited. " +
			"`collvet explain CODE` documents each rule.",
		URL:              "https://github.com/collvet/collvet#rules",
		Requires:         []*analysis.Analyzer{low},
		RunDespiteErrors: true,
		Run: func(pass *analysis.Pass) (any, error) {
			res, _ := pass.ResultOf[low].(*lower.Result)
			return nil, report(pass, res)
		},
	}
}

// Check runs the registered rules and the Go-specific checks over a
// lowered program; the CLI path uses it too (see analyzers/load).
func Check(prog *rules.Program) []rules.Diagnostic {
	ds := rules.Run(prog, rules.All())
	ds = append(ds, extra(prog)...)
	rules.SortDiagnostics(ds)
	return dedupe(ds)
}

func dedupe(ds []rules.Diagnostic) []rules.Diagnostic {
	type key struct {
		rule string
		pos  rules.Pos
	}
	seen := map[key]bool{}
	out := ds[:0]
	for _, d := range ds {
		k := key{d.Rule, rules.Pos{Path: d.Pos.Path, Line: d.Pos.Line, Col: d.Pos.Col}}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, d)
	}
	return out
}

func report(pass *analysis.Pass, res *lower.Result) error {
	if res == nil || res.Prog == nil || len(res.Prog.Sites) == 0 {
		return nil
	}
	sup := suppressions(pass)
	for _, d := range Check(res.Prog) {
		pos, ok := res.TokenPos(d.Pos)
		if !ok {
			continue
		}
		if sup.covers(pass.Fset.Position(pos).Line, pass.Fset.Position(pos).Filename, d) {
			continue
		}
		ad := analysis.Diagnostic{
			Pos:      pos,
			Category: d.Rule,
			Message:  d.Rule + " " + d.Message + " [" + d.Name + "]",
		}
		if d.Pos.EndLine > 0 {
			if end, ok := res.TokenPos(rules.Pos{Path: d.Pos.Path, Line: d.Pos.EndLine, Col: d.Pos.EndCol}); ok && end > pos {
				ad.End = end
			}
		}
		for _, r := range d.Related {
			if rp, ok := res.TokenPos(r.Pos); ok {
				ad.Related = append(ad.Related, analysis.RelatedInformation{Pos: rp, Message: r.Message})
			}
		}
		for _, f := range d.Fixes {
			sf := analysis.SuggestedFix{Message: f.Title}
			ok := true
			for _, e := range f.Edits {
				start, ok1 := res.TokenPos(e.Pos)
				end, ok2 := res.TokenPos(rules.Pos{Path: e.Pos.Path, Line: e.Pos.EndLine, Col: e.Pos.EndCol})
				if !ok1 || !ok2 || end < start {
					ok = false
					break
				}
				sf.TextEdits = append(sf.TextEdits, analysis.TextEdit{Pos: start, End: end, NewText: []byte(e.NewText)})
			}
			if ok && len(sf.TextEdits) > 0 {
				ad.SuggestedFixes = append(ad.SuggestedFixes, sf)
			}
		}
		pass.Report(ad)
	}
	return nil
}

// suppressionSet maps file:line to the directives covering it.
type suppressionSet map[string]map[int][]string

func (s suppressionSet) covers(line int, file string, d rules.Diagnostic) bool {
	for _, sel := range s[file][line] {
		if sel == d.Rule || sel == d.Name || strings.HasPrefix(d.Rule, sel) && len(sel) >= 2 && sel != "ALL" {
			return true
		}
	}
	return false
}

// suppressions reads //collvet:ignore CODE[,CODE] reason directives. A
// trailing directive covers its line; one alone on its line covers the
// next. A directive without a reason suppresses nothing (the CLI reports
// it as CV001).
func suppressions(pass *analysis.Pass) suppressionSet {
	out := suppressionSet{}
	cache := map[string][][]byte{}
	lines := func(name string) [][]byte {
		if ls, ok := cache[name]; ok {
			return ls
		}
		src, err := os.ReadFile(name)
		if err != nil {
			cache[name] = nil
			return nil
		}
		cache[name] = bytes.Split(src, []byte("\n"))
		return cache[name]
	}
	for _, f := range pass.Files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				text := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
				if !strings.HasPrefix(text, "collvet:ignore") {
					continue
				}
				fields := strings.Fields(strings.TrimPrefix(text, "collvet:ignore"))
				if len(fields) < 2 {
					continue
				}
				p := pass.Fset.Position(c.Pos())
				line := p.Line
				if ownLine(lines, p) {
					line++
				}
				m := out[p.Filename]
				if m == nil {
					m = map[int][]string{}
					out[p.Filename] = m
				}
				for _, code := range strings.Split(fields[0], ",") {
					if code = strings.TrimSpace(code); code != "" {
						m[line] = append(m[line], code)
					}
				}
			}
		}
	}
	return out
}

// ownLine reports whether nothing but whitespace precedes c on its line.
func ownLine(lines func(string) [][]byte, p token.Position) bool {
	ls := lines(p.Filename)
	if p.Line < 1 || p.Line > len(ls) {
		return false
	}
	l := ls[p.Line-1]
	if p.Column-1 > len(l) {
		return false
	}
	return len(bytes.TrimSpace(l[:p.Column-1])) == 0
}

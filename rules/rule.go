package rules

import (
	"fmt"
	"sort"
	"sync"
)

// Doc is a rule's single-sourced documentation: `collvet explain`, LSP hover
// and SARIF help all render it.
type Doc struct {
	Title      string   // one line, lower case, no period
	What       string   // what it does
	Why        string   // why is this bad
	Example    string   // code that triggers the rule
	UseInstead string   // the corrected code
	FixSafety  string   // what the fix does and when it is safe
	References []string // real incidents: URLs with a short note
	Since      string   // collvet version that introduced the rule
}

// Rule is one check.
type Rule struct {
	Code     string // CV101
	Name     string // collective-from-multiple-threads
	Severity Severity
	Doc      Doc
	HasFix   bool // the rule can offer fixes
	Run      func(*Pass)
}

// Pass is one run of one rule over a Program.
type Pass struct {
	Rule   *Rule
	Prog   *Program
	report func(Diagnostic)
}

// NewPass returns a pass whose reports go to report.
func NewPass(r *Rule, p *Program, report func(Diagnostic)) *Pass {
	return &Pass{Rule: r, Prog: p, report: report}
}

// Report records d, filling in the rule's code, name and severity.
func (p *Pass) Report(d Diagnostic) {
	d.Rule = p.Rule.Code
	d.Name = p.Rule.Name
	if d.Severity == "" {
		d.Severity = p.Rule.Severity
	}
	p.report(d)
}

// Reportf reports a diagnostic at pos with a formatted message.
func (p *Pass) Reportf(pos Pos, format string, args ...any) {
	p.Report(Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...)})
}

var (
	registryMu sync.Mutex
	registry   = map[string]*Rule{}
)

// Register adds r to the registry; rule packages call it from init.
func Register(r *Rule) *Rule {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[r.Code]; dup {
		panic("rules: duplicate rule " + r.Code)
	}
	registry[r.Code] = r
	return r
}

// All returns the registered rules sorted by code.
func All() []*Rule {
	registryMu.Lock()
	defer registryMu.Unlock()
	out := make([]*Rule, 0, len(registry))
	for _, r := range registry {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// Lookup returns the rule with the given code or name.
func Lookup(codeOrName string) *Rule {
	registryMu.Lock()
	defer registryMu.Unlock()
	if r, ok := registry[codeOrName]; ok {
		return r
	}
	for _, r := range registry {
		if r.Name == codeOrName {
			return r
		}
	}
	return nil
}

// Run runs rules over p and returns their diagnostics, sorted by position
// then code.
func Run(p *Program, rs []*Rule) []Diagnostic {
	var out []Diagnostic
	for _, r := range rs {
		if r.Run == nil {
			continue
		}
		r.Run(NewPass(r, p, func(d Diagnostic) { out = append(out, d) }))
	}
	SortDiagnostics(out)
	return out
}

// SortDiagnostics orders diagnostics by path, line, column, code, message.
func SortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Pos.Path != b.Pos.Path {
			return a.Pos.Path < b.Pos.Path
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Col != b.Pos.Col {
			return a.Pos.Col < b.Pos.Col
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
}

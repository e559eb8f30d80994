package output

import (
	"io"
	"strconv"

	"github.com/collvet/collvet/cmd/collvet/internal/driver"
	"github.com/collvet/collvet/rules"
)

// gitlabIssue is one entry of a GitLab Code Quality report (the subset of
// the Code Climate issue format that GitLab reads).
type gitlabIssue struct {
	Description string         `json:"description"`
	CheckName   string         `json:"check_name"`
	Fingerprint string         `json:"fingerprint"`
	Severity    string         `json:"severity"`
	Location    gitlabLocation `json:"location"`
}

type gitlabLocation struct {
	Path  string      `json:"path"`
	Lines gitlabLines `json:"lines"`
}

type gitlabLines struct {
	Begin int `json:"begin"`
	End   int `json:"end,omitempty"`
}

// GitLab writes a GitLab Code Quality report: a JSON array with one issue
// per finding, paths relative to opts.Root (the repository root, which is
// what GitLab resolves them against), and the fingerprint SARIF uses, so
// that merge-request widgets tell new findings from old ones across edits.
// Related locations are appended to the description: the format has one
// location per issue.
func GitLab(w io.Writer, rep *driver.Report, opts Options) error {
	ms := newMappers(rep)
	rel := relativizer(opts.Root)
	fp := newFingerprinter(ms, func(p string) string { return uriFor(rel(p)) })
	out := []gitlabIssue{}
	for _, d := range rep.Diagnostics {
		desc := d.Rule + " " + nonEmpty(d.Message, d.Name)
		for _, r := range d.Related {
			desc += "\n" + rel(r.Pos.Path) + ":" + strconv.Itoa(r.Pos.Line) + ": " + r.Message
		}
		line := max(d.Pos.Line, 1)
		el, _ := end(d.Pos)
		if el <= line {
			el = 0
		}
		out = append(out, gitlabIssue{
			Description: desc,
			CheckName:   d.Rule + " " + d.Name,
			Fingerprint: fp.next(d),
			Severity:    gitlabSeverity(d.Severity),
			Location:    gitlabLocation{Path: rel(d.Pos.Path), Lines: gitlabLines{Begin: line, End: el}},
		})
	}
	return writeJSON(w, out)
}

// gitlabSeverity maps a severity to Code Quality's scale (info, minor,
// major, critical, blocker): a finding that can hang a job is critical.
func gitlabSeverity(s rules.Severity) string {
	switch s {
	case rules.Error:
		return "critical"
	case rules.Warning:
		return "major"
	}
	return "minor"
}

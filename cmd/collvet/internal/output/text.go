package output

import (
	"bufio"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/fatih/color"

	"github.com/collvet/collvet/cmd/collvet/internal/driver"
	"github.com/collvet/collvet/rules"
)

// Text writes `path:line:col: CV101 message [name]` per finding, with each
// related location on its own line, indented by four spaces.
func Text(w io.Writer, rep *driver.Report, opts Options) error {
	bw := bufio.NewWriter(w)
	paint := func(attrs ...color.Attribute) func(a ...any) string {
		c := color.New(attrs...)
		if opts.Color {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
		return c.SprintFunc()
	}
	bold := paint(color.Bold)
	faint := paint(color.Faint)
	sev := map[rules.Severity]func(a ...any) string{
		rules.Error:   paint(color.FgRed, color.Bold),
		rules.Warning: paint(color.FgYellow, color.Bold),
		rules.Info:    paint(color.FgCyan, color.Bold),
	}
	for _, d := range rep.Diagnostics {
		code := d.Rule
		if f := sev[d.Severity]; f != nil {
			code = f(d.Rule)
		}
		fmt.Fprintf(bw, "%s: %s %s %s\n", bold(d.Pos.String()), code, d.Message, faint("["+d.Name+"]"))
		for _, r := range d.Related {
			fmt.Fprintf(bw, "    %s: %s\n", r.Pos.String(), r.Message)
		}
	}
	return bw.Flush()
}

// The JSON contract (design.md).
type jsonReport struct {
	Version     int        `json:"version"`
	Diagnostics []jsonDiag `json:"diagnostics"`
	Stats       jsonStats  `json:"stats"`
}

type jsonDiag struct {
	Rule      string        `json:"rule"`
	Name      string        `json:"name"`
	Severity  string        `json:"severity"`
	Path      string        `json:"path"`
	Line      int           `json:"line"`
	Column    int           `json:"column"`
	EndLine   int           `json:"end_line"`
	EndColumn int           `json:"end_column"`
	Message   string        `json:"message"`
	Related   []jsonRelated `json:"related"`
	Fixes     []jsonFix     `json:"fixes"`
}

type jsonRelated struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

type jsonFix struct {
	Title string     `json:"title"`
	Edits []jsonEdit `json:"edits"`
}

type jsonEdit struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	NewText   string `json:"new_text"`
}

type jsonStats struct {
	Files       int `json:"files"`
	ParseErrors int `json:"parse_errors"`
}

// JSON writes the contract's document: lines and 1-based byte columns,
// paths as the report has them. Empty lists are [] (never null); an
// unknown end is the start.
func JSON(w io.Writer, rep *driver.Report) error {
	out := jsonReport{Version: 1, Diagnostics: []jsonDiag{}, Stats: jsonStats{Files: rep.Stats.Files, ParseErrors: rep.Stats.ParseErrors}}
	for _, d := range rep.Diagnostics {
		el, ec := end(d.Pos)
		jd := jsonDiag{
			Rule: d.Rule, Name: d.Name, Severity: string(d.Severity),
			Path: d.Pos.Path, Line: d.Pos.Line, Column: d.Pos.Col, EndLine: el, EndColumn: ec,
			Message: d.Message, Related: []jsonRelated{}, Fixes: []jsonFix{},
		}
		for _, r := range d.Related {
			jd.Related = append(jd.Related, jsonRelated{Path: r.Pos.Path, Line: r.Pos.Line, Column: r.Pos.Col, Message: r.Message})
		}
		for _, f := range d.Fixes {
			jf := jsonFix{Title: f.Title, Edits: []jsonEdit{}}
			for _, e := range f.Edits {
				el, ec := end(e.Pos)
				jf.Edits = append(jf.Edits, jsonEdit{Path: e.Pos.Path, Line: e.Pos.Line, Column: e.Pos.Col, EndLine: el, EndColumn: ec, NewText: e.NewText})
			}
			jd.Fixes = append(jd.Fixes, jf)
		}
		out.Diagnostics = append(out.Diagnostics, jd)
	}
	return writeJSON(w, out)
}

// GitHub writes workflow commands that GitHub Actions turns into
// annotations: `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=…::message`.
// File paths are relative to opts.Root (the repository root, which is what
// GitHub resolves them against); columns are 1-based UTF-16; related
// locations follow the message.
func GitHub(w io.Writer, rep *driver.Report, opts Options) error {
	ms := newMappers(rep)
	rel := relativizer(opts.Root)
	bw := bufio.NewWriter(w)
	for _, d := range rep.Diagnostics {
		level := "error"
		switch d.Severity {
		case rules.Warning:
			level = "warning"
		case rules.Info:
			level = "notice"
		}
		el, ec := end(d.Pos)
		msg := d.Message
		for _, r := range d.Related {
			msg += fmt.Sprintf("\n  %s:%d:%d: %s", rel(r.Pos.Path), r.Pos.Line, r.Pos.Col, r.Message)
		}
		fmt.Fprintf(bw, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n",
			level, ghProp(rel(d.Pos.Path)), d.Pos.Line, ms.utf16(d.Pos.Path, d.Pos.Line, d.Pos.Col),
			el, ms.utf16(d.Pos.Path, el, ec), ghProp(d.Rule+" "+d.Name), ghData(msg))
	}
	return bw.Flush()
}

// ghData escapes a workflow command's message (actions/toolkit escapeData).
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProp escapes a workflow command's property (actions/toolkit escapeProperty).
func ghProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// uriFor returns path as a URI reference relative to root, slash-separated
// and percent-encoded per segment.
func uriFor(rel string) string {
	parts := strings.Split(rel, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}

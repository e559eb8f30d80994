package lsp

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/textpos"
)

func init() {
	handlers["textDocument/codeAction"] = (*Server).codeAction
}

// toActions converts a finding's fixes to quick fixes, their edits in
// UTF-16 against the text the analysis saw. The first fix is preferred
// (the rule lists its recommended fix first).
func toActions(d rules.Diagnostic, mapper func(string) *textpos.Mapper) []CodeAction {
	var out []CodeAction
	for i, f := range d.Fixes {
		edit := &WorkspaceEdit{Changes: map[string][]TextEdit{}}
		for _, e := range f.Edits {
			path := e.Pos.Path
			if path == "" {
				path = d.Pos.Path
			}
			m := mapper(path)
			start := Position{Line: e.Pos.Line - 1, Character: m.UTF16Col(e.Pos.Line, e.Pos.Col)}
			end := start
			if e.Pos.EndLine > 0 {
				end = Position{Line: e.Pos.EndLine - 1, Character: m.UTF16Col(e.Pos.EndLine, e.Pos.EndCol)}
			}
			uri := pathToURI(path)
			edit.Changes[uri] = append(edit.Changes[uri], TextEdit{Range: Range{Start: start, End: end}, NewText: e.NewText})
		}
		if len(edit.Changes) == 0 {
			continue
		}
		title := f.Title
		if title == "" {
			title = "Fix " + d.Rule
		}
		out = append(out, CodeAction{
			Title:       title + " (" + d.Rule + ")",
			Kind:        CodeActionKindQuickFix,
			IsPreferred: i == 0,
			Edit:        edit,
		})
	}
	return out
}

// codeAction offers the fixes of the findings that overlap the requested
// range.
func (s *Server) codeAction(_ context.Context, params json.RawMessage) (any, error) {
	var p CodeActionParams
	if err := unmarshal(params, &p); err != nil {
		return nil, err
	}
	actions := []CodeAction{}
	if len(p.Context.Only) > 0 && !wantsQuickFix(p.Context.Only) {
		return actions, nil
	}
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil {
		return actions, nil
	}
	s.mu.Lock()
	fd := s.published[path]
	s.mu.Unlock()
	if fd == nil {
		return actions, nil
	}
	for i, d := range fd.lsp {
		if !overlaps(d.Range, p.Range) {
			continue
		}
		fixes := append(fd.fixes[i][:len(fd.fixes[i]):len(fd.fixes[i])], s.ignoreActions(fd, i)...)
		for _, a := range fixes {
			a.Diagnostics = []Diagnostic{d}
			// The edits of an open document are computed against the
			// published URI; answer with the URI the client asked about.
			if edits, ok := a.Edit.Changes[pathToURI(path)]; ok && p.TextDocument.URI != pathToURI(path) {
				changes := map[string][]TextEdit{}
				for u, e := range a.Edit.Changes {
					changes[u] = e
				}
				delete(changes, pathToURI(path))
				changes[p.TextDocument.URI] = edits
				a.Edit = &WorkspaceEdit{Changes: changes}
			}
			actions = append(actions, a)
		}
	}
	return actions, nil
}

// ignoreActions are the quick fixes that add a suppression directive for
// finding i of fd, on its line (Options.Suppress) and for its file
// (Options.SuppressFile), computed on request: planning them reads the
// whole file, which publishing every finding cannot afford.
func (s *Server) ignoreActions(fd *fileDiags, i int) []CodeAction {
	if fd.src == nil {
		return nil
	}
	d := fd.findings[i]
	f := &rules.File{Path: d.Pos.Path, Lang: rules.Python, Src: fd.src}
	if strings.HasSuffix(d.Pos.Path, ".go") {
		f.Lang = rules.Go
	}
	var out []CodeAction
	m := textpos.New(fd.src)
	for _, plan := range []struct {
		fn    func(*rules.File, rules.Diagnostic) (rules.Fix, bool)
		title string
	}{
		{s.opts.Suppress, "Ignore on this line, then write why"},
		{s.opts.SuppressFile, "Ignore in this file, then write why"},
	} {
		if plan.fn == nil {
			continue
		}
		fix, ok := plan.fn(f, d)
		if !ok {
			continue
		}
		fix.Title = plan.title
		actions := toActions(rules.Diagnostic{Rule: d.Rule, Pos: d.Pos, Fixes: []rules.Fix{fix}}, func(string) *textpos.Mapper { return m })
		if len(actions) == 0 {
			continue
		}
		a := actions[0]
		a.IsPreferred = false
		out = append(out, a)
	}
	return out
}

// wantsQuickFix reports whether a codeAction "only" filter admits quick
// fixes (kinds are hierarchical: "quickfix" admits "quickfix.x").
func wantsQuickFix(only []string) bool {
	for _, k := range only {
		if k == CodeActionKindQuickFix || k == "" {
			return true
		}
	}
	return false
}

// overlaps reports whether two ranges share a position; a point range
// overlaps a range that contains it, ends included (the cursor at the end
// of a finding still sees its fix).
func overlaps(a, b Range) bool {
	return !less(a.End, b.Start) && !less(b.End, a.Start)
}

// less orders positions.
func less(a, b Position) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Character < b.Character
}

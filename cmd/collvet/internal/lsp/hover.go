package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/collvet/collvet/rules"
)

func init() {
	handlers["textDocument/hover"] = (*Server).hover
}

// hover explains the findings under the cursor: the message, the chain of
// related locations (the spawn or hook registration, the other thread's
// collective, the guard) and the rule's documentation.
func (s *Server) hover(_ context.Context, params json.RawMessage) (any, error) {
	var p TextDocumentPositionParams
	if err := unmarshal(params, &p); err != nil {
		return nil, err
	}
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil {
		return nil, nil
	}
	s.mu.Lock()
	fd := s.published[path]
	s.mu.Unlock()
	if fd == nil {
		return nil, nil
	}
	at := Range{Start: p.Position, End: p.Position}
	var parts []string
	var rng *Range
	for i, d := range fd.lsp {
		if !overlaps(d.Range, at) {
			continue
		}
		if rng == nil {
			r := d.Range
			rng = &r
		}
		parts = append(parts, s.explain(fd.findings[i], d, filepath.Dir(path)))
	}
	if len(parts) == 0 {
		return nil, nil
	}
	return Hover{
		Contents: MarkupContent{Kind: "markdown", Value: strings.Join(parts, "\n\n---\n\n")},
		Range:    rng,
	}, nil
}

// explain renders one finding as markdown.
func (s *Server) explain(f rules.Diagnostic, d Diagnostic, dir string) string {
	var b strings.Builder
	rule := rules.Lookup(f.Rule)
	fmt.Fprintf(&b, "**%s** `%s`", f.Rule, f.Name)
	if rule != nil && rule.Doc.Title != "" {
		fmt.Fprintf(&b, " — %s", rule.Doc.Title)
	}
	fmt.Fprintf(&b, "\n\n%s\n", f.Message)
	if len(f.Related) > 0 {
		// The related entries run from the context's spawn (or hook
		// registration) through the calls to the other collective: the
		// path a reader follows to see why the call is hazardous.
		b.WriteString("\n**Call chain**\n\n")
		for i, r := range f.Related {
			name := r.Pos.Path
			if rel, err := filepath.Rel(dir, r.Pos.Path); err == nil && !strings.HasPrefix(rel, "..") {
				name = rel
			}
			fmt.Fprintf(&b, "%d. [%s:%d](%s#L%d) %s\n", i+1, filepath.ToSlash(name), r.Pos.Line,
				pathToURI(r.Pos.Path), r.Pos.Line, r.Message)
		}
	}
	if rule != nil {
		doc := rule.Doc
		if doc.Why != "" {
			fmt.Fprintf(&b, "\n**Why this is a problem**\n\n%s\n", strings.TrimSpace(doc.Why))
		}
		if doc.UseInstead != "" {
			lang := "python"
			if strings.HasSuffix(f.Pos.Path, ".go") {
				lang = "go"
			}
			fmt.Fprintf(&b, "\n**Use instead**\n\n```%s\n%s\n```\n", lang, strings.TrimSpace(doc.UseInstead))
		}
		if doc.FixSafety != "" && len(f.Fixes) > 0 {
			fmt.Fprintf(&b, "\n**Fix**: %s\n", strings.TrimSpace(doc.FixSafety))
		}
	}
	if d.CodeDescription != nil {
		fmt.Fprintf(&b, "\n[%s documentation](%s)\n", f.Rule, d.CodeDescription.Href)
	}
	return b.String()
}

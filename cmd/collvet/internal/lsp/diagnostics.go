package lsp

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/textpos"
)

// fileDiags is what was last published for one file: the protocol
// diagnostics and, index for index, the findings they came from (hover and
// code actions read them).
type fileDiags struct {
	uri      string
	lsp      []Diagnostic
	findings []rules.Diagnostic
	fixes    [][]CodeAction // per finding, edits already in UTF-16
	// src is the text the findings were computed on (nil when unknown),
	// for the quick fixes made on request (Options.Suppress).
	src []byte
}

// snapshot is the state one analysis sees.
type snapshot struct {
	gen           uint64
	roots         []string
	docs          map[string]*document // copies
	changed       []string
	configChanged bool
	ignore        []string
}

// touch records that paths changed (or the configuration did) and wakes
// the scheduler, which analyses after the debounce delay.
func (s *Server) touch(paths []string, config bool) {
	s.mu.Lock()
	for _, p := range paths {
		s.changed[p] = true
	}
	if config {
		s.configDirty = true
	}
	s.gen++
	s.mu.Unlock()
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// take copies the state for an analysis and clears the change set.
func (s *Server) take() *snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	snap := &snapshot{
		gen:           s.gen,
		roots:         append([]string(nil), s.roots...),
		docs:          make(map[string]*document, len(s.docs)),
		configChanged: s.configDirty,
		ignore:        append(append([]string(nil), s.opts.Ignore...), s.ignore...),
	}
	for p, d := range s.docs {
		c := *d
		snap.docs[p] = &c
	}
	for p := range s.changed {
		snap.changed = append(snap.changed, p)
	}
	sort.Strings(snap.changed)
	s.changed = map[string]bool{}
	s.configDirty = false
	if len(snap.roots) == 0 {
		// No workspace folder (a single file opened): analyse the open
		// files themselves.
		for p := range snap.docs {
			snap.roots = append(snap.roots, p)
		}
		sort.Strings(snap.roots)
	}
	return snap
}

// restore puts an abandoned snapshot's changes back, so that the next
// analysis still knows about them.
func (s *Server) restore(snap *snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range snap.changed {
		s.changed[p] = true
	}
	if snap.configChanged {
		s.configDirty = true
	}
}

// outcome is a finished analysis.
type outcome struct {
	snap *snapshot
	res  *Result
	err  error
}

// schedule is the analysis loop: debounce kicks, run one analysis at a time
// on its own goroutine, cancel it when a newer change arrives, publish only
// results of the newest state.
func (s *Server) schedule(ctx context.Context) {
	var (
		timer   *time.Timer
		timerC  <-chan time.Time
		running bool
		cancel  context.CancelFunc = func() {}
		pending bool               // the debounce expired while an analysis was running
		done    = make(chan outcome, 1)
		// lastShown is the analysis error last shown to the user.
		lastShown string
		prog      *progress // the running analysis's progress report
		started   uint64    // analyses started (progress tokens)
	)
	start := func() {
		snap := s.take()
		actx, c := context.WithCancel(ctx)
		cancel = c
		running = true
		started++
		prog = s.startProgress(started, s.progressDelay())
		go func() { done <- s.analyze(actx, snap) }()
	}
	for {
		select {
		case <-ctx.Done():
			cancel()
			prog.end("")
			return
		case <-s.kick:
			cancel() // latest wins: the running analysis is obsolete
			delay := s.opts.Debounce
			if s.cheapChanges() {
				delay = 0 // the analysis will be handed back: no need to wait for more typing
			}
			if started == 0 {
				// The workspace's first analysis (after initialized) waits
				// for no typing: nothing is on screen yet.
				delay = 0
			}
			if timer == nil {
				timer = time.NewTimer(delay)
			} else {
				timer.Reset(delay)
			}
			timerC = timer.C
		case <-timerC:
			timerC = nil
			if running {
				pending = true
			} else {
				start()
			}
		case o := <-done:
			running = false
			cancel()
			prog.end("")
			prog = nil
			s.mu.Lock()
			current := o.snap.gen == s.gen
			s.mu.Unlock()
			switch {
			case current && o.err == nil:
				lastShown = ""
				s.safePublish(o.snap, o.res)
			case current:
				s.logf(MessageError, "collvet: analysis failed: %v", o.err)
				// A broken configuration file or a missing folder stops
				// every analysis: say so where the user looks, once per
				// distinct error.
				if msg := o.err.Error(); msg != lastShown {
					lastShown = msg
					s.notify("window/showMessage", LogMessageParams{Type: MessageError, Message: "collvet: " + msg})
				}
			default:
				s.restore(o.snap) // superseded: analyse again with the newer state
			}
			if pending {
				pending = false
				start()
			}
		}
	}
}

// cheapChanges reports whether every change waiting for analysis is an
// open document whose new text changes no code (Options.Unchanged).
func (s *Server) cheapChanges() bool {
	if s.opts.Unchanged == nil {
		return false
	}
	s.mu.Lock()
	if s.configDirty || len(s.changed) == 0 {
		s.mu.Unlock()
		return false
	}
	texts := make(map[string][]byte, len(s.changed))
	for p := range s.changed {
		d := s.docs[p]
		if d == nil {
			s.mu.Unlock()
			return false // a file changed on disk: a real analysis
		}
		texts[p] = d.text
	}
	s.mu.Unlock()
	for p, t := range texts {
		if !s.opts.Unchanged(p, t) {
			return false
		}
	}
	return true
}

// safePublish is publish, with a panic logged rather than ending the
// server: the editor keeps its previous diagnostics, and the next
// analysis publishes again.
func (s *Server) safePublish(snap *snapshot, res *Result) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(s.opts.Log, "collvet: publishing diagnostics panicked: %v\n%s", r, debug.Stack())
			s.notify("window/logMessage", LogMessageParams{Type: MessageError, Message: fmt.Sprintf("collvet: internal error while publishing diagnostics (recovered): %v", r)})
		}
	}()
	s.publish(snap, res)
}

// existingRoots drops the workspace folders that do not exist (one
// deleted from a multi-root workspace), saying so once per folder, so
// that the others are still analysed. With none left, all are kept and
// the analysis reports the error.
func (s *Server) existingRoots(roots []string) []string {
	var out []string
	for _, r := range roots {
		if _, err := os.Stat(r); err != nil {
			s.mu.Lock()
			warned := s.missingRoots[r]
			if s.missingRoots == nil {
				s.missingRoots = map[string]bool{}
			}
			s.missingRoots[r] = true
			s.mu.Unlock()
			if !warned {
				s.logf(MessageWarning, "collvet: workspace folder %s is not readable (%v); analysing the others", r, err)
			}
			continue
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return roots
	}
	return out
}

// analyze runs the analyzer on snap, turning a panic into an error.
func (s *Server) analyze(ctx context.Context, snap *snapshot) (o outcome) {
	o.snap = snap
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(s.opts.Log, "collvet: analysis panicked: %v\n%s", r, debug.Stack())
			o.res, o.err = nil, fmt.Errorf("internal error (recovered): %v", r)
		}
	}()
	req := Request{
		Roots:         s.existingRoots(snap.roots),
		Overlay:       make(map[string][]byte, len(snap.docs)),
		Changed:       snap.changed,
		ConfigChanged: snap.configChanged,
	}
	for p, d := range snap.docs {
		req.Overlay[p] = d.text
	}
	o.res, o.err = s.opts.Analyzer.Analyze(ctx, req)
	if o.err == nil && o.res == nil {
		o.res = &Result{}
	}
	return o
}

// publish converts res to protocol diagnostics and sends one
// publishDiagnostics per file that has findings now or had them before, and
// per open document.
func (s *Server) publish(snap *snapshot, res *Result) {
	texts := map[string][]byte{}
	for _, f := range res.Files {
		if f != nil {
			texts[s.absPath(snap, f.Path)] = f.Src
		}
	}
	for p, d := range snap.docs {
		texts[p] = d.text // what the analysis saw for open documents
	}
	mappers := map[string]*textpos.Mapper{}
	mapper := func(path string) *textpos.Mapper {
		if m, ok := mappers[path]; ok {
			return m
		}
		src, ok := texts[path]
		if !ok {
			src, _ = os.ReadFile(path) // a missing file maps every position to its start
		}
		m := textpos.New(src)
		mappers[path] = m
		return m
	}

	next := map[string]*fileDiags{}
	for _, d := range res.Diagnostics {
		if ignored(d, snap.ignore) || !d.Pos.IsValid() {
			continue
		}
		d.Pos.Path = s.absPath(snap, d.Pos.Path)
		fd := next[d.Pos.Path]
		if fd == nil {
			uri := pathToURI(d.Pos.Path)
			if doc := snap.docs[d.Pos.Path]; doc != nil {
				uri = doc.uri
			}
			fd = &fileDiags{uri: uri}
			next[d.Pos.Path] = fd
		}
		for i := range d.Related {
			d.Related[i].Pos.Path = s.absPath(snap, d.Related[i].Pos.Path)
		}
		for i := range d.Fixes {
			for j := range d.Fixes[i].Edits {
				d.Fixes[i].Edits[j].Pos.Path = s.absPath(snap, d.Fixes[i].Edits[j].Pos.Path)
			}
		}
		fd.lsp = append(fd.lsp, s.toProtocol(d, mapper))
		fd.findings = append(fd.findings, d)
		fd.fixes = append(fd.fixes, toActions(d, mapper))
		fd.src = texts[d.Pos.Path]
	}

	s.mu.Lock()
	prev := s.published
	s.published = next
	s.publishedGen, s.analysed = snap.gen, true
	s.seenSrc = texts
	// Documents opened since the snapshot with their on-disk text (they
	// did not ask for an analysis of their own) are published too, if
	// the analysis read that same text; one whose file changed on disk
	// in between is analysed again instead, so that no version is ever
	// published with findings of another text.
	opened := map[string]document{}
	var stale []string
	for p, d := range s.docs {
		if snap.docs[p] == nil {
			if src, ok := texts[p]; ok && bytes.Equal(src, d.text) {
				opened[p] = *d
			} else {
				stale = append(stale, p)
			}
		}
	}
	s.mu.Unlock()
	if len(stale) > 0 {
		sort.Strings(stale)
		s.touch(stale, false)
	}

	paths := make([]string, 0, len(next)+len(prev))
	for p := range next {
		paths = append(paths, p)
	}
	for p := range prev {
		if next[p] == nil {
			paths = append(paths, p)
		}
	}
	// Open documents always get a publish, empty when clean: the client
	// learns that its latest version was analysed.
	for p := range snap.docs {
		if next[p] == nil && prev[p] == nil {
			paths = append(paths, p)
		}
	}
	for p := range opened {
		if next[p] == nil && prev[p] == nil {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		params := PublishDiagnosticsParams{Diagnostics: []Diagnostic{}}
		if fd := next[p]; fd != nil {
			params.URI, params.Diagnostics = fd.uri, fd.lsp
		} else if fd := prev[p]; fd != nil {
			params.URI = fd.uri // cleared
		}
		// A clean document opened while the analysis ran is in neither
		// next nor prev: its URI and version come from the document.
		if doc := snap.docs[p]; doc != nil {
			v := doc.version
			params.Version = &v
			if params.URI == "" {
				params.URI = doc.uri
			}
		} else if doc, ok := opened[p]; ok {
			v := doc.version
			params.URI, params.Version = doc.uri, &v
		}
		s.notify("textDocument/publishDiagnostics", params)
	}
}

// publishOpened publishes the last analysis's findings for a document just
// opened with its on-disk text.
func (s *Server) publishOpened(path string) {
	s.mu.Lock()
	doc := s.docs[path]
	fd := s.published[path]
	var v int
	seen := false
	if doc != nil {
		v = doc.version
		src, ok := s.seenSrc[path]
		seen = ok && bytes.Equal(src, doc.text)
	}
	s.mu.Unlock()
	if doc == nil {
		return
	}
	if !seen {
		// The last analysis read another text for this file (it changed
		// on disk since): analyse rather than publish stale findings.
		s.touch([]string{path}, false)
		return
	}
	params := PublishDiagnosticsParams{URI: doc.uri, Diagnostics: []Diagnostic{}, Version: &v}
	if fd != nil {
		params.Diagnostics = fd.lsp
	}
	s.notify("textDocument/publishDiagnostics", params)
}

// absPath makes a reported path absolute: paths relative to the first root
// (or to the working directory when there is none).
func (s *Server) absPath(snap *snapshot, path string) string {
	if path == "" || filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	if len(snap.roots) > 0 {
		root := snap.roots[0]
		if _, isDoc := snap.docs[root]; isDoc {
			root = filepath.Dir(root)
		}
		return filepath.Join(root, path)
	}
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// ignored reports whether d's rule is listed in ignore (codes, code
// prefixes or rule names).
func ignored(d rules.Diagnostic, ignore []string) bool {
	for _, ig := range ignore {
		ig = strings.TrimSpace(ig)
		if ig == "" {
			continue
		}
		if strings.HasPrefix(d.Rule, strings.ToUpper(ig)) || d.Name == ig {
			return true
		}
	}
	return false
}

// toRange converts a model position to a protocol range. Without an end,
// the range runs to the end of the start line.
func toRange(m *textpos.Mapper, p rules.Pos) Range {
	line := max(p.Line, 1)
	col := max(p.Col, 1)
	r := Range{Start: Position{Line: line - 1, Character: m.UTF16Col(line, col)}}
	switch {
	case p.EndLine > 0 && (p.EndLine > line || (p.EndLine == line && p.EndCol >= col)):
		r.End = Position{Line: p.EndLine - 1, Character: m.UTF16Col(p.EndLine, max(p.EndCol, 1))}
	default:
		r.End = Position{Line: line - 1, Character: m.UTF16Col(line, len(m.Line(line))+1)}
		if r.End.Character < r.Start.Character {
			r.End = r.Start
		}
	}
	return r
}

// toProtocol converts a finding.
func (s *Server) toProtocol(d rules.Diagnostic, mapper func(string) *textpos.Mapper) Diagnostic {
	out := Diagnostic{
		Range:    toRange(mapper(d.Pos.Path), d.Pos),
		Severity: severity(d.Severity),
		Code:     d.Rule,
		Source:   "collvet",
		Message:  d.Message,
	}
	if d.Name != "" {
		out.Message += " [" + d.Name + "]"
	}
	if d.Rule != "" {
		out.CodeDescription = &CodeDescription{Href: s.opts.DocURL(d.Rule)}
	}
	if unnecessary[d.Name] {
		out.Tags = []int{TagUnnecessary} // editors fade the text out
	}
	for _, r := range d.Related {
		if !r.Pos.IsValid() {
			continue
		}
		out.RelatedInformation = append(out.RelatedInformation, DiagnosticRelatedInformation{
			Location: Location{URI: pathToURI(r.Pos.Path), Range: toRange(mapper(r.Pos.Path), r.Pos)},
			Message:  r.Message,
		})
	}
	return out
}

// unnecessary names the rules whose findings mark text that does nothing
// (published with the Unnecessary tag).
var unnecessary = map[string]bool{
	"unused-suppression": true, // CV002: a suppression comment that silences nothing
}

// severity maps a rule severity to the protocol's.
func severity(s rules.Severity) int {
	switch s {
	case rules.Error:
		return SeverityError
	case rules.Warning:
		return SeverityWarning
	case rules.Info:
		return SeverityInformation
	}
	return SeverityWarning
}

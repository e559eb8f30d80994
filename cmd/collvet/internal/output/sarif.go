package output

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"github.com/collvet/collvet/cmd/collvet/internal/driver"
	"github.com/collvet/collvet/rules"
)

// SARIF 2.1.0 types: the subset collvet emits.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool              sarifTool         `json:"tool"`
		AutomationDetails *sarifAutomation  `json:"automationDetails,omitempty"`
		ColumnKind        string            `json:"columnKind"`
		Invocations       []sarifInvocation `json:"invocations"`
		Results           []sarifResult     `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri,omitempty"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string          `json:"id"`
		Name                 string          `json:"name"`
		ShortDescription     sarifText       `json:"shortDescription"`
		FullDescription      sarifText       `json:"fullDescription"`
		Help                 sarifMultiText  `json:"help"`
		HelpURI              string          `json:"helpUri,omitempty"`
		DefaultConfiguration sarifRuleConfig `json:"defaultConfiguration"`
		Properties           map[string]any  `json:"properties,omitempty"`
	}
	sarifRuleConfig struct {
		Level string `json:"level"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifMultiText struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown,omitempty"`
	}
	sarifAutomation struct {
		ID string `json:"id"`
	}
	sarifInvocation struct {
		ExecutionSuccessful        bool                `json:"executionSuccessful"`
		ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
	}
	sarifNotification struct {
		Level     string          `json:"level"`
		Message   sarifText       `json:"message"`
		Locations []sarifLocation `json:"locations,omitempty"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifText         `json:"message"`
		Locations           []sarifLocation   `json:"locations"`
		RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
		Fixes               []sarifFix        `json:"fixes,omitempty"`
	}
	sarifLocation struct {
		ID               *int          `json:"id,omitempty"`
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
		Message          *sarifText    `json:"message,omitempty"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtLoc  `json:"artifactLocation"`
		Region           *sarifRegion `json:"region,omitempty"`
	}
	sarifArtLoc struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
		EndLine     int `json:"endLine,omitempty"`
		EndColumn   int `json:"endColumn,omitempty"`
	}
	sarifFix struct {
		Description     sarifText             `json:"description"`
		ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
	}
	sarifArtifactChange struct {
		ArtifactLocation sarifArtLoc        `json:"artifactLocation"`
		Replacements     []sarifReplacement `json:"replacements"`
	}
	sarifReplacement struct {
		DeletedRegion   sarifRegion `json:"deletedRegion"`
		InsertedContent *sarifText  `json:"insertedContent,omitempty"`
	}
)

// FingerprintKey names collvet's partial fingerprint in SARIF results.
const FingerprintKey = "collvetFingerprint/v1"

// SARIF writes one SARIF 2.1.0 run. tool.driver.rules lists the rules that
// ran; URIs are relative to opts.Root with
// uriBaseId %SRCROOT%; columns are 1-based UTF-16 code units (SARIF's
// default columnKind); partialFingerprints hash the rule, the file and the
// text of the flagged line (not its number), so they survive line shifts.
func SARIF(w io.Writer, rep *driver.Report, opts Options) error {
	root := opts.Root
	if root == "" {
		root = "."
	}
	ms := newMappers(rep)
	relPath := relativizer(root)
	rel := func(path string) string { return uriFor(relPath(path)) }
	region := func(p rules.Pos) *sarifRegion {
		line := p.Line
		if line < 1 {
			line = 1
		}
		r := &sarifRegion{StartLine: line}
		if p.Col > 0 {
			r.StartColumn = ms.utf16(p.Path, line, p.Col)
		}
		if p.EndLine >= line && p.EndCol > 0 {
			r.EndLine = p.EndLine
			r.EndColumn = ms.utf16(p.Path, p.EndLine, p.EndCol)
			if r.EndLine == r.StartLine && r.EndColumn < r.StartColumn {
				r.EndColumn = r.StartColumn
			}
		}
		return r
	}
	loc := func(p rules.Pos) sarifLocation {
		return sarifLocation{PhysicalLocation: sarifPhysical{
			ArtifactLocation: sarifArtLoc{URI: rel(p.Path), URIBaseID: "%SRCROOT%"},
			Region:           region(p),
		}}
	}

	// The rules that ran (all registered rules when the report does not
	// say): every result's rule is among them.
	all := rep.Rules
	if all == nil {
		all = sortedRules()
	}
	index := map[string]int{}
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{Name: "collvet", Version: opts.Version,
			InformationURI: "https://github.com/collvet/collvet", Rules: []sarifRule{}}},
		AutomationDetails: &sarifAutomation{ID: "collvet/"},
		ColumnKind:        "utf16CodeUnits",
		Results:           []sarifResult{},
	}
	for i, r := range all {
		index[r.Code] = i
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID: r.Code, Name: r.Name,
			ShortDescription:     sarifText{Text: nonEmpty(r.Doc.Title, r.Name)},
			FullDescription:      sarifText{Text: nonEmpty(strings.TrimSpace(r.Doc.What), nonEmpty(r.Doc.Title, r.Name))},
			Help:                 sarifMultiText{Text: ExplainText(r), Markdown: ExplainMarkdown(r)},
			HelpURI:              rules.DocURL(r.Code),
			DefaultConfiguration: sarifRuleConfig{Level: level(r.Severity)},
			Properties:           map[string]any{"tags": []string{"correctness", "concurrency", "distributed"}, "precision": "high", "problem.severity": problemSeverity(r.Severity)},
		})
	}

	inv := sarifInvocation{ExecutionSuccessful: true}
	for _, e := range rep.Errors {
		if e.Kind == "syntax" || e.Kind == "decode" {
			continue // reported as CV000 results
		}
		n := sarifNotification{Level: "warning", Message: sarifText{Text: e.Msg + " (" + e.Kind + ")"}}
		n.Locations = []sarifLocation{{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtLoc{URI: rel(e.Path), URIBaseID: "%SRCROOT%"}}}}
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, n)
	}
	run.Invocations = []sarifInvocation{inv}

	fp := newFingerprinter(ms, rel)
	for _, d := range rep.Diagnostics {
		res := sarifResult{
			RuleID: d.Rule, Level: level(d.Severity),
			Message:   sarifText{Text: nonEmpty(d.Message, d.Name)},
			Locations: []sarifLocation{loc(d.Pos)},
		}
		if i, ok := index[d.Rule]; ok {
			res.RuleIndex = i
		} else {
			res.RuleIndex = -1 // not registered: schema allows -1 ("not given")
		}
		for i, r := range d.Related {
			l := loc(r.Pos)
			id := i + 1
			l.ID = &id
			l.Message = &sarifText{Text: nonEmpty(r.Message, "related location")}
			res.RelatedLocations = append(res.RelatedLocations, l)
		}
		res.PartialFingerprints = map[string]string{FingerprintKey: fp.next(d)}
		for _, f := range d.Fixes {
			sf := sarifFix{Description: sarifText{Text: nonEmpty(f.Title, "Apply the fix")}}
			byFile := map[string]int{}
			for _, e := range f.Edits {
				u := rel(e.Pos.Path)
				k, ok := byFile[u]
				if !ok {
					k = len(sf.ArtifactChanges)
					byFile[u] = k
					sf.ArtifactChanges = append(sf.ArtifactChanges, sarifArtifactChange{ArtifactLocation: sarifArtLoc{URI: u, URIBaseID: "%SRCROOT%"}})
				}
				p := e.Pos
				if p.EndLine <= 0 {
					p.EndLine, p.EndCol = p.Line, p.Col
				}
				rg := region(p)
				if rg.EndLine == 0 { // an insertion: an empty region at the start
					rg.EndLine, rg.EndColumn = rg.StartLine, rg.StartColumn
				}
				rep := sarifReplacement{DeletedRegion: *rg}
				if e.NewText != "" {
					rep.InsertedContent = &sarifText{Text: e.NewText}
				}
				sf.ArtifactChanges[k].Replacements = append(sf.ArtifactChanges[k].Replacements, rep)
			}
			if len(sf.ArtifactChanges) > 0 {
				res.Fixes = append(res.Fixes, sf)
			}
		}
		run.Results = append(run.Results, res)
	}
	log := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	}
	return writeJSON(w, log)
}

func level(s rules.Severity) string {
	switch s {
	case rules.Error:
		return "error"
	case rules.Info:
		return "note"
	}
	return "warning"
}

func problemSeverity(s rules.Severity) string {
	switch s {
	case rules.Error:
		return "error"
	case rules.Info:
		return "recommendation"
	}
	return "warning"
}

func nonEmpty(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

// fingerprinter gives each finding an identity that survives edits
// elsewhere in the file: a hash of the rule, the file and the finding's
// line with whitespace normalised (not its number), plus how many earlier
// findings of the report had the same hash. SARIF's partialFingerprints
// and GitLab's fingerprint use it, so one finding has one identity.
type fingerprinter struct {
	ms   *mappers
	rel  func(string) string
	seen map[string]int // base -> occurrences so far
}

func newFingerprinter(ms *mappers, rel func(string) string) *fingerprinter {
	return &fingerprinter{ms: ms, rel: rel, seen: map[string]int{}}
}

// next returns the fingerprint of d; call it once per finding, in report
// order.
func (f *fingerprinter) next(d rules.Diagnostic) string {
	base := d.Rule + "\x00" + f.rel(d.Pos.Path) + "\x00" + strings.Join(strings.Fields(f.ms.lineText(d.Pos.Path, d.Pos.Line)), " ")
	n := f.seen[base]
	f.seen[base] = n + 1
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d", base, n)))
	return hex.EncodeToString(sum[:16])
}

package output

import (
	"fmt"
	"strings"

	"github.com/collvet/collvet/rules"
)

// SeverityText is a rule's default severity, with the lower one its less
// certain findings get: "error (some warning)".
func SeverityText(r *rules.Rule) string {
	if r.Lowered != "" && r.Lowered != r.Severity {
		return fmt.Sprintf("%s (some %s)", r.Severity, r.Lowered)
	}
	return string(r.Severity)
}

// ExplainText renders a rule's documentation as plain text (collvet
// explain, SARIF help.text).
func ExplainText(r *rules.Rule) string {
	var b strings.Builder
	d := r.Doc
	fmt.Fprintf(&b, "%s (%s): %s\n", r.Code, r.Name, d.Title)
	fix := "no"
	if r.HasFix {
		fix = "yes"
	}
	fmt.Fprintf(&b, "Default severity: %s. Fix available: %s.", SeverityText(r), fix)
	if d.Since != "" {
		fmt.Fprintf(&b, " Since: %s.", d.Since)
	}
	b.WriteString("\n")
	section := func(title, text string, code bool) {
		text = strings.TrimRight(text, "\n")
		if text == "" {
			return
		}
		fmt.Fprintf(&b, "\n%s\n", title)
		for _, l := range strings.Split(text, "\n") {
			if code {
				b.WriteString(strings.TrimRight("    "+l, " ") + "\n")
				continue
			}
			for _, w := range wrap(l, 76) {
				if w != "" {
					b.WriteString("  ")
				}
				b.WriteString(w + "\n")
			}
		}
	}
	section("What it does", d.What, false)
	section("Why is this bad", d.Why, false)
	section("Example", d.Example, true)
	section("Use instead", d.UseInstead, true)
	section("Fix safety", d.FixSafety, false)
	if len(d.References) > 0 {
		b.WriteString("\nReferences\n")
		for _, ref := range d.References {
			fmt.Fprintf(&b, "  - %s\n", ref)
		}
	}
	return b.String()
}

// ExplainMarkdown renders a rule's documentation as Markdown (SARIF
// help.markdown, LSP hover).
func ExplainMarkdown(r *rules.Rule) string {
	var b strings.Builder
	d := r.Doc
	fmt.Fprintf(&b, "## %s %s\n\n%s\n", r.Code, r.Name, d.Title)
	para := func(title, text string) {
		if text = strings.TrimSpace(text); text != "" {
			fmt.Fprintf(&b, "\n### %s\n\n%s\n", title, text)
		}
	}
	code := func(title, text string) {
		if text = strings.TrimRight(text, "\n"); strings.TrimSpace(text) != "" {
			fmt.Fprintf(&b, "\n### %s\n\n```python\n%s\n```\n", title, text)
		}
	}
	para("What it does", d.What)
	para("Why is this bad?", d.Why)
	code("Example", d.Example)
	code("Use instead", d.UseInstead)
	para("Fix safety", d.FixSafety)
	if len(d.References) > 0 {
		b.WriteString("\n### References\n\n")
		for _, ref := range d.References {
			fmt.Fprintf(&b, "- %s\n", ref)
		}
	}
	return b.String()
}

// wrap breaks a paragraph into lines of at most width bytes at spaces
// (a longer word stays whole).
func wrap(text string, width int) []string {
	words := strings.Fields(text)
	if len(words) == 0 {
		return []string{""}
	}
	var lines []string
	cur := words[0]
	for _, w := range words[1:] {
		if len(cur)+1+len(w) > width {
			lines = append(lines, cur)
			cur = w
			continue
		}
		cur += " " + w
	}
	return append(lines, cur)
}

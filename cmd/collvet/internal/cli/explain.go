package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/collvet/collvet/cmd/collvet/internal/output"
	"github.com/collvet/collvet/rules"
)

// explain prints a rule's documentation; rules lists every rule.
func init() {
	Register(&Command{
		Name:  "explain",
		Usage: "[--format text|markdown] CODE|NAME ...",
		Short: "print a rule's documentation (collvet explain CV101)",
		Run:   runExplain,
	})
	Register(&Command{
		Name:  "rules",
		Usage: "[--format text|json]",
		Short: "list every rule: code, name, default severity, fix availability",
		Run:   runRules,
	})
}

func runExplain(env *Env, args []string) int {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	format := fs.String("format", "text", "text or markdown")
	fs.Usage = func() {
		fmt.Fprintf(env.Stderr, "usage: collvet explain [--format text|markdown] CODE|NAME ...\n")
		fs.PrintDefaults()
	}
	names, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitError
	}
	if *format != "text" && *format != "markdown" {
		return env.Errorf("explain: unknown --format %q (want text or markdown)", *format)
	}
	if len(names) == 0 {
		fs.Usage()
		return ExitError
	}
	for i, n := range names {
		r := rules.Lookup(strings.ToUpper(n))
		if r == nil {
			r = rules.Lookup(n)
		}
		if r == nil {
			return env.Errorf("explain: unknown rule %q (see `collvet rules`)", n)
		}
		if i > 0 {
			fmt.Fprintln(env.Stdout)
		}
		if *format == "markdown" {
			io.WriteString(env.Stdout, output.ExplainMarkdown(r))
		} else {
			io.WriteString(env.Stdout, output.ExplainText(r))
		}
	}
	return ExitOK
}

type ruleJSON struct {
	Code     string `json:"code"`
	Name     string `json:"name"`
	Severity string `json:"severity"`
	Fix      bool   `json:"fix"`
	Title    string `json:"title"`
}

func runRules(env *Env, args []string) int {
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	format := fs.String("format", "text", "text or json")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitError
	}
	if fs.NArg() > 0 {
		return env.Errorf("rules: unexpected argument %q", fs.Arg(0))
	}
	all := rules.All()
	switch *format {
	case "json":
		out := []ruleJSON{}
		for _, r := range all {
			out = append(out, ruleJSON{r.Code, r.Name, string(r.Severity), r.HasFix, r.Doc.Title})
		}
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return env.Errorf("rules: %v", err)
		}
	case "text":
		w := 0
		for _, r := range all {
			w = max(w, len(r.Name))
		}
		fmt.Fprintf(env.Stdout, "%-6s %-*s %-8s %-4s %s\n", "CODE", w, "NAME", "SEVERITY", "FIX", "TITLE")
		for _, r := range all {
			fixable := "-"
			if r.HasFix {
				fixable = "yes"
			}
			fmt.Fprintf(env.Stdout, "%-6s %-*s %-8s %-4s %s\n", r.Code, w, r.Name, r.Severity, fixable, r.Doc.Title)
		}
	default:
		return env.Errorf("rules: unknown --format %q (want text or json)", *format)
	}
	return ExitOK
}

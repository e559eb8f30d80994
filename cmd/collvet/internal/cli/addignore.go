package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/collvet/collvet/cmd/collvet/internal/driver"
	"github.com/collvet/collvet/cmd/collvet/internal/fix"
	"github.com/collvet/collvet/rules"
)

// addIgnores is `collvet --add-ignore REASON`: a suppression directive
// for every finding of rep, written like fixes (atomically, only to files
// unchanged since they were read, only when the file still parses). With
// --diff it prints the directives as a diff instead and returns a nil
// report and the exit status. Otherwise it reports what it did on stderr
// and returns the report of a fresh analysis: the findings that remain.
func addIgnores(ctx context.Context, env *Env, f *checkFlags, req driver.Request, rep *driver.Report, minSev rules.Severity) (*driver.Report, int) {
	diags, skipped := driver.SuppressionFixes(rep.Files, rep.Diagnostics, *f.addIgnore)
	changes, skips := fix.Plan(rep.Files, diags)
	if !f.quiet {
		for _, s := range skipped {
			fmt.Fprintf(env.Stderr, "collvet: %s: not suppressed: %s\n", s.Pos, s.Reason)
		}
		for _, s := range skips {
			fmt.Fprintf(env.Stderr, "collvet: %s: not suppressed: %s\n", s.Path, s.Reason)
		}
	}
	if f.diff {
		return nil, printDiffs(env, changes)
	}
	added, files := writeChanges(env, changes, "not suppressed")
	if !f.quiet {
		fmt.Fprintf(env.Stderr, "collvet: added %s in %s\n", plural(added, "suppression"), plural(files, "file"))
	}
	if files == 0 {
		return rep, 0
	}
	next, err := driver.Analyze(ctx, req)
	if err != nil {
		return nil, env.Errorf("%v", err)
	}
	filterSeverity(next, minSev)
	return next, 0
}

// plural is "1 file", "2 files".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "x") {
		return fmt.Sprintf("%d %ses", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

package driver

import "github.com/collvet/collvet/rules"

// The driver's own codes. They are registered as rules without a Run
// function (rules.Run skips them) so that select/ignore, severity
// overrides, `collvet rules` and `collvet explain` treat them like any rule.

// SyntaxError (CV000) reports a file that could not be parsed or decoded.
// Choice: a finding (exit 1) rather than an internal error (exit 2), since
// the other files are still analysed and a hazard may hide in the part that
// does not parse; the file's own findings are unknown.
var SyntaxError = rules.Register(&rules.Rule{
	Code:     "CV000",
	Name:     "syntax-error",
	Severity: rules.Error,
	Doc: rules.Doc{
		Title: "file could not be parsed",
		What: "Reports a Python file that collvet could not parse (a syntax error, " +
			"as CPython reports it) or decode (an invalid coding cookie, bytes that are " +
			"not valid in the declared encoding). The other files are still analysed.",
		Why: "collvet cannot see the collectives, threads and hooks of a file it cannot " +
			"parse, so hazards in that file, and hazards that span it, go unreported.",
		Example:    "def train(:\n    dist.all_reduce(t)",
		UseInstead: "def train():\n    dist.all_reduce(t)",
		FixSafety:  "No fix is offered.",
		Since:      "0.1.0",
	},
})

// InvalidSuppression (CV001) reports a malformed suppression directive.
var InvalidSuppression = rules.Register(&rules.Rule{
	Code:     "CV001",
	Name:     "invalid-suppression",
	Severity: rules.Error,
	Doc: rules.Doc{
		Title: "malformed suppression comment",
		What: "Reports a `# collvet: ignore[...]` or `# collvet: file-ignore[...]` (Python), " +
			"`//collvet:ignore` or `//collvet:file-ignore` (Go) " +
			"directive that names no rule, names an unknown rule, or gives no reason. " +
			"Such a directive suppresses nothing.",
		Why: "A suppression records a decision that a finding does not apply; without " +
			"the reason the next reader cannot check the decision when the code changes. " +
			"A misspelt code would silently suppress nothing.",
		Example:    "dist.all_reduce(t)  # collvet: ignore[CV101]",
		UseInstead: "dist.all_reduce(t)  # collvet: ignore[CV101] the saver thread is joined before training starts",
		FixSafety:  "No fix is offered: only the author knows the reason.",
		Since:      "0.1.0",
	},
})

// UnusedSuppression (CV002) reports a suppression that silences nothing.
var UnusedSuppression = rules.Register(&rules.Rule{
	Code:     "CV002",
	Name:     "unused-suppression",
	Severity: rules.Warning,
	HasFix:   true,
	Doc: rules.Doc{
		Title: "suppression comment silences nothing",
		What: "Reports a suppression directive, or a code in it, that silenced no finding " +
			"on the line it covers. A trailing directive covers its own line; a directive " +
			"alone on a line covers the next line; a file-ignore directive covers its whole file. " +
			"Only codes of rules that ran are checked.",
		Why: "Stale suppressions hide future findings on the same line and mislead " +
			"readers about hazards that are no longer there.",
		Example:    "x = compute()  # collvet: ignore[CV101] old workaround",
		UseInstead: "x = compute()",
		FixSafety:  "The fix deletes the directive (the whole line when it stands alone). It is safe: the directive had no effect.",
		Since:      "0.1.0",
	},
})

package rules

// Severity of a diagnostic.
type Severity string

const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Info    Severity = "info"
)

// Rank orders severities: error > warning > info.
func (s Severity) Rank() int {
	switch s {
	case Error:
		return 3
	case Warning:
		return 2
	case Info:
		return 1
	}
	return 0
}

// Diagnostic is one finding. Pos is the hazardous call.
type Diagnostic struct {
	Rule     string // CV101
	Name     string // collective-from-multiple-threads
	Severity Severity
	Pos      Pos
	Message  string
	Related  []Related
	Fixes    []Fix
}

// Related is a secondary location: the other context's collective, the
// spawn or hook-registration site, the guard.
type Related struct {
	Pos     Pos
	Message string
}

// Fix is a set of text edits that removes the finding.
type Fix struct {
	Title string
	Edits []Edit
}

// Edit replaces the range [Pos.Line:Pos.Col, Pos.EndLine:Pos.EndCol) with
// NewText. An insertion has EndLine/EndCol equal to Line/Col.
type Edit struct {
	Pos     Pos
	NewText string
}

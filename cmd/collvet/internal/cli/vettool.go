package cli

import (
	"strings"

	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/collvet/collvet/analyzers/collvet"
)

// IsVetTool reports whether args (without the program name) are the go
// command's vet-tool protocol: `-flags` (list the analyzer flags),
// `-V=full` (the tool's identity, a build cache key) or a run on one
// package, whose last argument is the vet.cfg file.
func IsVetTool(args []string) bool {
	if len(args) == 0 {
		return false
	}
	return args[0] == "-flags" || strings.HasPrefix(args[0], "-V=") ||
		strings.HasSuffix(args[len(args)-1], ".cfg")
}

// VetTool serves `go vet -vettool=$(which collvet)` (and `go fix
// -fixtool=`) when args ask for it: it runs collvet's analyzer through
// unitchecker, which reads os.Args and exits. Otherwise it returns and
// main goes on to the CLI.
func VetTool(args []string) {
	if IsVetTool(args) {
		unitchecker.Main(collvet.Analyzer)
	}
}

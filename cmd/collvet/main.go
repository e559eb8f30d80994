// Command collvet is "go vet for collective communication": it reads
// distributed-training code (Python and Go) and reports the patterns that
// make large jobs hang or corrupt silently.
//
// The work lives in packages; main only dispatches. See README.md for usage
// and design.md-style documentation in the packages.
package main

import (
	"os"

	"github.com/collvet/collvet/cmd/collvet/internal/cli"
)

func main() {
	cli.VetTool(os.Args[1:]) // go vet -vettool: does not return
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

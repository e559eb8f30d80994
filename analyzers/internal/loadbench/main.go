// Command loadbench times the Go front end's CLI path (analyzers/load:
// go/packages, the builder analyzer with facts over every package, the
// merge) and the rules on the merged program, for scripts/bench-go.sh.
//
//	go run ./analyzers/internal/loadbench [-dir DIR] [patterns]
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/collvet/collvet/analyzers/collvet"
	"github.com/collvet/collvet/analyzers/load"
)

func main() {
	dir := flag.String("dir", ".", "directory the patterns are relative to")
	flag.Parse()
	patterns := flag.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	start := time.Now()
	prog, errs := load.Load(patterns, *dir)
	loaded := time.Since(start)
	ds := collvet.Check(prog)
	total := time.Since(start)
	fmt.Printf("files=%d funcs=%d sites=%d contexts=%d findings=%d errors=%d load=%.2fs total=%.2fs\n",
		len(prog.Files), len(prog.Funcs), len(prog.Sites), len(prog.Contexts), len(ds), len(errs),
		loaded.Seconds(), total.Seconds())
	if len(errs) > 0 {
		fmt.Fprintln(os.Stderr, "first error:", errs[0])
	}
}

package cli

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/sourcegraph/conc/pool"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/parser"
	"github.com/collvet/collvet/pyfront/scanner"
)

func init() {
	Register(&Command{
		Name:  "debug ast",
		Usage: "[--attributes] [--shape=3.11|3.12|3.13] FILE",
		Short: "print the syntax tree of a Python file exactly as CPython's ast.dump does",
		Run:   runDebugAST,
	})
	Register(&Command{
		Name:  "debug tokens",
		Usage: "FILE",
		Short: "print the tokens and comments of a Python file",
		Run:   runDebugTokens,
	})
	Register(&Command{
		Name:  "debug parse",
		Usage: "[--hold] PATH...",
		Short: "parse every .py file under the paths on all cores and print totals",
		Run:   runDebugParse,
	})
}

func runDebugAST(env *Env, args []string) int {
	fset := flag.NewFlagSet("debug ast", flag.ContinueOnError)
	fset.SetOutput(env.Stderr)
	attrs := fset.Bool("attributes", false, "include positions (lineno, col_offset, end_lineno, end_col_offset)")
	shape := fset.String("shape", "3.11", "node field shape and grammar: 3.11, 3.12 or 3.13")
	if err := fset.Parse(args); err != nil {
		return ExitError
	}
	if fset.NArg() != 1 {
		return env.Errorf("usage: collvet debug ast [--attributes] [--shape=3.11|3.12|3.13] FILE")
	}
	var sh ast.Shape
	var minor int
	switch *shape {
	case "3.11", "311":
		sh, minor = ast.Shape311, 11
	case "3.12", "312":
		sh, minor = ast.Shape312, 12
	case "3.13", "313":
		sh, minor = ast.Shape313, 13
	default:
		return env.Errorf("unknown --shape %q (want 3.11, 3.12 or 3.13)", *shape)
	}
	name := fset.Arg(0)
	src, err := os.ReadFile(name)
	if err != nil {
		return env.Errorf("%v", err)
	}
	f, errs := parser.Parse(name, src, parser.Options{Minor: minor})
	if len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintln(env.Stderr, e)
		}
		return ExitFindings
	}
	fmt.Fprintln(env.Stdout, ast.Dump(f.Module, ast.DumpOptions{Attributes: *attrs, Shape: sh}))
	return ExitOK
}

func runDebugTokens(env *Env, args []string) int {
	if len(args) != 1 {
		return env.Errorf("usage: collvet debug tokens FILE")
	}
	src, err := os.ReadFile(args[0])
	if err != nil {
		return env.Errorf("%v", err)
	}
	text, enc, err := scanner.Decode(src)
	if err != nil {
		return env.Errorf("%s: %v", args[0], err)
	}
	res := scanner.Tokenize(text, scanner.Options{})
	fmt.Fprintf(env.Stdout, "# encoding %s, %d tokens, %d comments\n", enc, len(res.Tokens), len(res.Comments))
	// Merge comments into the token stream by offset for display.
	ci := 0
	print := func(t scanner.Token) {
		fmt.Fprintf(env.Stdout, "%d,%d-%d,%d:\t%s\t%q\n", t.Line, t.Col, t.EndLine, t.EndCol, t.Kind, res.Text(t))
	}
	for _, t := range res.Tokens {
		for ci < len(res.Comments) && res.Comments[ci].Off <= t.Off {
			print(res.Comments[ci])
			ci++
		}
		print(t)
	}
	for _, e := range res.Errors {
		fmt.Fprintf(env.Stderr, "%s:%v\n", args[0], e)
	}
	if len(res.Errors) > 0 {
		return ExitFindings
	}
	return ExitOK
}

func runDebugParse(env *Env, args []string) int {
	fset := flag.NewFlagSet("debug parse", flag.ContinueOnError)
	fset.SetOutput(env.Stderr)
	hold := fset.Bool("hold", false, "keep every tree until the end (to measure peak memory of a whole code base)")
	if err := fset.Parse(args); err != nil {
		return ExitError
	}
	args = fset.Args()
	if len(args) == 0 {
		return env.Errorf("usage: collvet debug parse [--hold] PATH...")
	}
	var files []string
	for _, root := range args {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(path, ".py") {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return env.Errorf("%v", err)
		}
	}
	start := time.Now()
	cpu0 := cpuSeconds()
	var mu sync.Mutex
	var nbytes, nlines, nerrFiles int
	// With --hold, trees are kept alive until the end so that peak memory
	// reflects a whole code base held in memory, as the analysis does.
	var trees []*ast.Module
	if *hold {
		trees = make([]*ast.Module, len(files))
	}
	p := pool.New().WithMaxGoroutines(runtime.GOMAXPROCS(0))
	for i, name := range files {
		p.Go(func() {
			src, err := os.ReadFile(name)
			if err != nil {
				mu.Lock()
				nerrFiles++
				fmt.Fprintf(env.Stderr, "%v\n", err)
				mu.Unlock()
				return
			}
			f, errs := parser.Parse(name, src, parser.Options{})
			if trees != nil {
				trees[i] = f.Module
			}
			mu.Lock()
			nbytes += len(src)
			nlines += len(f.Lines)
			if len(errs) > 0 {
				nerrFiles++
				fmt.Fprintf(env.Stderr, "%s\n", errs[0])
			}
			mu.Unlock()
		})
	}
	p.Wait()
	secs := time.Since(start).Seconds()
	cpu := cpuSeconds() - cpu0
	runtime.KeepAlive(trees)
	fmt.Fprintf(env.Stdout, "files %d\nbytes %d\nlines %d\nsyntax_errors %d\nseconds %.3f\ncpu_seconds %.3f\n", len(files), nbytes, nlines, nerrFiles, secs, cpu)
	if secs > 0 {
		fmt.Fprintf(env.Stdout, "MB/s %.1f\nlines/s %.0f\n", float64(nbytes)/1e6/secs, float64(nlines)/secs)
	}
	return ExitOK
}

// cpuSeconds is the process's user+system CPU time so far; on a shared
// machine it is a steadier measure than wall time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

package parser_test

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/parser"
)

const refPython = "/usr/bin/python3"

// requireCorpus reports whether a missing corpus or interpreter must fail
// the test instead of skipping it (CI sets COLLVET_REQUIRE_CORPUS=1).
func requireCorpus() bool { return os.Getenv("COLLVET_REQUIRE_CORPUS") == "1" }

func skipOrFail(t *testing.T, format string, args ...any) {
	t.Helper()
	if requireCorpus() {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}

// corpusRoots returns the directories of the differential test: the
// reference interpreter's standard library and Debian's torch sources.
// COLLVET_CORPUS_ROOTS (colon-separated) overrides them.
func corpusRoots(t *testing.T) []string {
	if env := os.Getenv("COLLVET_CORPUS_ROOTS"); env != "" {
		return strings.Split(env, ":")
	}
	if _, err := os.Stat(refPython); err != nil {
		skipOrFail(t, "%s not found", refPython)
	}
	out, err := exec.Command(refPython, "-c", `import sysconfig;print(sysconfig.get_paths()["stdlib"])`).Output()
	if err != nil {
		skipOrFail(t, "cannot query %s: %v", refPython, err)
	}
	roots := []string{strings.TrimSpace(string(out))}
	torch := "/usr/lib/python3/dist-packages/torch"
	if _, err := os.Stat(filepath.Join(torch, "distributed")); err == nil {
		roots = append(roots, torch)
	} else if requireCorpus() {
		t.Fatalf("torch sources not found at %s", torch)
	} else {
		t.Logf("torch sources not found at %s; comparing the standard library only", torch)
	}
	return roots
}

// benchRoots returns the corpus roots for benchmarks, or nil.
func benchRoots() []string {
	if env := os.Getenv("COLLVET_CORPUS_ROOTS"); env != "" {
		return strings.Split(env, ":")
	}
	out, err := exec.Command(refPython, "-c", `import sysconfig;print(sysconfig.get_paths()["stdlib"])`).Output()
	if err != nil {
		return nil
	}
	roots := []string{strings.TrimSpace(string(out))}
	if _, err := os.Stat("/usr/lib/python3/dist-packages/torch"); err == nil {
		roots = append(roots, "/usr/lib/python3/dist-packages/torch")
	}
	return roots
}

func pyFiles(t *testing.T, roots []string) []string {
	files := walkPy(roots)
	if files == nil {
		skipOrFail(t, "cannot walk %v", roots)
	}
	return files
}

// walkPy lists the regular .py files under roots, sorted.
func walkPy(roots []string) []string {
	var files []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() && strings.HasSuffix(path, ".py") {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil
		}
	}
	sort.Strings(files)
	return files
}

type refDump struct {
	path string
	ok   bool
	text string
}

// readDumps runs the helper script over files and streams its records.
func readDumps(t *testing.T, python string, files []string, attrs bool, out chan<- refDump) error {
	defer close(out)
	mode := "attrs"
	if !attrs {
		mode = "noattrs"
	}
	cmd := exec.Command(python, filepath.Join("..", "testdata", "dump_ast.py"), mode)
	cmd.Stdin = strings.NewReader(strings.Join(files, "\n") + "\n")
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	r := bufio.NewReaderSize(stdout, 1<<20)
	for {
		hdr, err := r.ReadString('\n')
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		parts := strings.SplitN(strings.TrimSuffix(hdr, "\n"), " ", 3)
		if len(parts) != 3 {
			return fmt.Errorf("bad header %q", hdr)
		}
		n, err := strconv.Atoi(parts[1])
		if err != nil {
			return fmt.Errorf("bad header %q", hdr)
		}
		buf := make([]byte, n)
		if _, err := io.ReadFull(r, buf); err != nil {
			return err
		}
		out <- refDump{path: parts[2], ok: parts[0] == "OK", text: string(buf)}
	}
	return cmd.Wait()
}

// firstDiff shows both texts around their first differing byte.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-300)
	return fmt.Sprintf("at byte %d\n  go:      …%s…\n  cpython: …%s…", i, a[lo:min(len(a), i+200)], b[lo:min(len(b), i+200)])
}

type diffResult struct {
	identical, rejectedBoth int
	failures                []string
}

// compareCorpus parses every file with the Go parser and compares its dump
// with the reference interpreter's.
func compareCorpus(t *testing.T, python string, files []string, opt parser.Options, shape ast.Shape, attrs bool) diffResult {
	ch := make(chan refDump, 64)
	errc := make(chan error, 1)
	go func() { errc <- readDumps(t, python, files, attrs, ch) }()
	var mu sync.Mutex
	var res diffResult
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for d := range ch {
				src, err := os.ReadFile(d.path)
				if err != nil {
					mu.Lock()
					res.failures = append(res.failures, fmt.Sprintf("%s: %v", d.path, err))
					mu.Unlock()
					continue
				}
				f, errs := parser.Parse(d.path, src, opt)
				var msg string
				same := false
				switch {
				case !d.ok && len(errs) > 0:
					same = true
				case !d.ok:
					msg = fmt.Sprintf("%s: CPython rejects it (%s) but the parser accepted it", d.path, d.text)
				case len(errs) > 0:
					msg = fmt.Sprintf("%s: parser rejected a file CPython accepts: %v", d.path, errs[0])
				default:
					got := ast.Dump(f.Module, ast.DumpOptions{Attributes: attrs, Shape: shape})
					if got == d.text {
						same = true
					} else {
						msg = fmt.Sprintf("%s: dump differs %s", d.path, firstDiff(got, d.text))
					}
				}
				mu.Lock()
				if same {
					if d.ok {
						res.identical++
					} else {
						res.rejectedBoth++
					}
				} else {
					res.failures = append(res.failures, msg)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if readErr := <-errc; readErr != nil {
		t.Fatalf("reference dump: %v", readErr)
	}
	sort.Strings(res.failures)
	return res
}

// TestCPythonCorpus is the differential test: every .py file of the
// reference interpreter's standard library and of the torch sources must
// dump identically (positions included), and files CPython rejects must be
// rejected.
func TestCPythonCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus comparison skipped in -short mode")
	}
	roots := corpusRoots(t)
	files := pyFiles(t, roots)
	if len(files) == 0 {
		skipOrFail(t, "no .py files under %v", roots)
	}
	res := compareCorpus(t, refPython, files, parser.Options{Minor: 11}, ast.Shape311, true)
	t.Logf("%d files: %d identical, %d rejected by both, %d differ", len(files), res.identical, res.rejectedBoth, len(res.failures))
	for i, f := range res.failures {
		if i == 20 {
			t.Errorf("… and %d more", len(res.failures)-20)
			break
		}
		t.Error(f)
	}
}

// TestSnippets compares acceptance and dumps of the short programs of
// testdata/snippets311.txt with the reference interpreter.
func TestSnippets(t *testing.T) {
	if _, err := os.Stat(refPython); err != nil {
		skipOrFail(t, "%s not found", refPython)
	}
	data, err := os.ReadFile(filepath.Join("..", "testdata", "snippets311.txt"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var files []string
	for i, prog := range strings.Split(string(data), "#---\n")[1:] {
		name := filepath.Join(dir, fmt.Sprintf("s%03d.py", i))
		if err := os.WriteFile(name, []byte(prog), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	res := compareCorpus(t, refPython, files, parser.Options{Minor: 11}, ast.Shape311, true)
	t.Logf("%d snippets: %d accepted and identical, %d rejected by both", len(files), res.identical, res.rejectedBoth)
	for _, f := range res.failures {
		t.Error(f)
	}
}

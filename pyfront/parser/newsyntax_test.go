package parser_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/parser"
)

// newSyntaxFile is a file of pyfront/testdata/newsyntax with its header:
// "# min: 3.N" (the oldest interpreter that accepts it) and optionally
// "# positions: no" (compare the dump without positions).
type newSyntaxFile struct {
	path      string
	minMinor  int
	positions bool
}

func newSyntaxFiles(t *testing.T) []newSyntaxFile {
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "newsyntax", "*.py"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no newsyntax corpus: %v", err)
	}
	var out []newSyntaxFile
	for _, p := range paths {
		f := newSyntaxFile{path: p, minMinor: 12, positions: true}
		fh, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for i := 0; i < 3 && sc.Scan(); i++ {
			line := sc.Text()
			if v, ok := strings.CutPrefix(line, "# min: 3."); ok {
				f.minMinor, _ = strconv.Atoi(v)
			}
			if line == "# positions: no" {
				f.positions = false
			}
		}
		fh.Close()
		out = append(out, f)
	}
	return out
}

// pyenvPython finds pyenv's interpreter for 3.minor, or "".
func pyenvPython(minor int) string {
	root := os.Getenv("PYENV_ROOT")
	if root == "" {
		home, _ := os.UserHomeDir()
		root = filepath.Join(home, ".pyenv")
	}
	matches, _ := filepath.Glob(filepath.Join(root, "versions", "3."+strconv.Itoa(minor)+".*", "bin", "python3"))
	if len(matches) == 0 {
		return ""
	}
	return matches[len(matches)-1]
}

// TestNewSyntax compares the 3.12/3.13 constructs of testdata/newsyntax
// with pyenv's 3.12 and 3.13 interpreters, using the matching dump shape.
func TestNewSyntax(t *testing.T) {
	files := newSyntaxFiles(t)
	for _, minor := range []int{12, 13} {
		py := pyenvPython(minor)
		if py == "" {
			if requireCorpus() {
				t.Errorf("no Python 3.%d interpreter found under pyenv", minor)
			} else {
				t.Logf("no Python 3.%d interpreter found under pyenv; skipped", minor)
			}
			continue
		}
		for _, positions := range []bool{true, false} {
			var paths []string
			for _, f := range files {
				if f.minMinor <= minor && f.positions == positions {
					paths = append(paths, f.path)
				}
			}
			if len(paths) == 0 {
				continue
			}
			res := compareCorpus(t, py, paths, parser.Options{Minor: minor}, ast.Shape(300+minor), positions)
			t.Logf("3.%d (positions %v): %d files, %d identical", minor, positions, len(paths), res.identical)
			for _, f := range res.failures {
				t.Error(f)
			}
		}
	}
}

// TestNewSyntaxRejectedBy311 checks that 3.12+ syntax is refused in the
// default (3.11) mode, as /usr/bin/python3 refuses it.
func TestNewSyntaxRejectedBy311(t *testing.T) {
	for _, src := range []string{
		"type X = int\n",
		"def f[T](x: T): pass\n",
		"class A[T]: pass\n",
		"x = f\"{'\\n'}\"\n",
		"x = f\"{a # c\n}\"\n",
	} {
		if _, errs := parser.ParseFile("x.py", []byte(src)); len(errs) == 0 {
			t.Errorf("3.11 mode accepted %q", src)
		}
	}
}

// TestPyenvLibraries compares whole pyenv libraries (standard library,
// test suite and site-packages) of 3.11, 3.12 and 3.13, each with its own
// interpreter and dump shape. It takes minutes, so it runs only with
// COLLVET_PARSER_PYENV=1.
func TestPyenvLibraries(t *testing.T) {
	if os.Getenv("COLLVET_PARSER_PYENV") != "1" {
		t.Skip("set COLLVET_PARSER_PYENV=1 to compare pyenv's full libraries")
	}
	for _, minor := range []int{11, 12, 13} {
		py := pyenvPython(minor)
		if py == "" {
			t.Logf("no Python 3.%d under pyenv", minor)
			continue
		}
		lib := filepath.Join(filepath.Dir(filepath.Dir(py)), "lib", "python3."+strconv.Itoa(minor))
		files := walkPy([]string{lib})
		res := compareCorpus(t, py, files, parser.Options{Minor: minor}, ast.Shape(300+minor), true)
		t.Logf("3.%d: %d files: %d identical, %d rejected by both, %d differ", minor, len(files), res.identical, res.rejectedBoth, len(res.failures))
		for i, f := range res.failures {
			if i == 20 {
				t.Errorf("… and %d more", len(res.failures)-20)
				break
			}
			t.Error(f)
		}
	}
}

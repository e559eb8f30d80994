package pyfront

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// torchDir finds PyTorch's Python sources: $COLLVET_BENCH_TORCH, or the
// torch package python3 would import (found without importing it).
func torchDir(b *testing.B) string {
	if d := os.Getenv("COLLVET_BENCH_TORCH"); d != "" {
		return d
	}
	// Every python3 on PATH is asked (a pyenv shim may come first).
	for _, bin := range filepath.SplitList(os.Getenv("PATH")) {
		py := filepath.Join(bin, "python3")
		if _, err := os.Stat(py); err != nil {
			continue
		}
		out, err := exec.Command(py, "-c", "import importlib.util as u; s = u.find_spec('torch'); print(s.submodule_search_locations[0] if s else '')").Output()
		if d := strings.TrimSpace(string(out)); err == nil && d != "" {
			return d
		}
	}
	b.Skip("torch sources not found; set COLLVET_BENCH_TORCH")
	return ""
}

// BenchmarkLoadTorch analyses the whole torch package as one program:
// discovery, parsing, scopes, call graph, contexts and the model.
//
//	go test ./pyfront -run '^$' -bench LoadTorch -benchtime 3x
func BenchmarkLoadTorch(b *testing.B) {
	dir := torchDir(b)
	for i := 0; i < b.N; i++ {
		res, err := Load([]string{dir}, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Lines), "lines")
	}
}

// BenchmarkReanalyseTorch measures a re-run after a one-line change in one
// torch module, with the per-module cache warm: only that module is
// parsed again; the whole-program analysis is redone.
func BenchmarkReanalyseTorch(b *testing.B) {
	reanalyse(b, func(i int) string { return "\n_collvet_bench_edit = " + strings.Repeat("1", i%7+1) + "\n" }, true)
}

// BenchmarkReanalyseTorchComment is BenchmarkReanalyseTorch for an edit
// that changes no token (a comment line appended): the cache hands back
// the previous analysis (reuse.go), after reading and comparing the
// changed file and statting the others.
func BenchmarkReanalyseTorchComment(b *testing.B) {
	reanalyse(b, func(i int) string { return "\n# collvet bench: " + strings.Repeat("x", i%7+1) + "\n" }, false)
}

// reanalyse loads torch with a cache, then times Loads with the text that
// suffix(i) gives appended to distributed_c10d.py; full says whether each
// must be a full analysis (a Result with its Graph) or a reused one.
func reanalyse(b *testing.B, suffix func(i int) string, full bool) {
	dir := torchDir(b)
	cache := NewCache()
	if _, err := Load([]string{dir}, Options{Cache: cache}); err != nil {
		b.Fatal(err)
	}
	target := filepath.Join(dir, "distributed", "distributed_c10d.py")
	src, err := os.ReadFile(target)
	if err != nil {
		b.Skip(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		edited := append(append([]byte(nil), src...), suffix(i)...)
		res, err := Load([]string{dir}, Options{Cache: cache, Overlay: map[string][]byte{target: edited}})
		if err != nil {
			b.Fatal(err)
		}
		if (res.Graph != nil) != full {
			b.Fatalf("edit %d: full analysis %v, want %v", i, res.Graph != nil, full)
		}
	}
}

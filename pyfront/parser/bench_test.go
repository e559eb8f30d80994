package parser_test

import (
	"os"
	"testing"

	"github.com/collvet/collvet/pyfront/parser"
)

// BenchmarkParseCorpus parses the differential corpus (read into memory
// first) once per iteration on one goroutine; it reports MB/s.
func BenchmarkParseCorpus(b *testing.B) {
	t := &testing.T{}
	_ = t
	roots := benchRoots()
	if roots == nil {
		b.Skip("no corpus")
	}
	var srcs [][]byte
	var total int64
	for _, f := range walkPy(roots) {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		srcs = append(srcs, src)
		total += int64(len(src))
	}
	if len(srcs) == 0 {
		b.Skip("no corpus files")
	}
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, src := range srcs {
			parser.ParseFile("x.py", src)
		}
	}
}

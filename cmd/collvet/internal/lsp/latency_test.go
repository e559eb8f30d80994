package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/sourcegraph/jsonrpc2"
)

// BenchmarkEditorTorch measures what an editor user waits for, end to end
// through the real binary over stdio, with PyTorch's Python sources (the
// installed torch package, *.py copied to a temporary directory; set
// COLLVET_TORCH_DIR to use another tree) open as the workspace:
//
//	first-ms: from sending initialize to the first publishDiagnostics of
//	          an opened module (the whole workspace analysed once)
//	edit-ms:  median from a one-line didChange in that module to the
//	          publishDiagnostics of the changed version (debounce included)
//	burst-ms: median from the second of two edits sent 300 ms apart (the
//	          first one's analysis is still running, and is obsolete) to
//	          the publishDiagnostics of the second
//
// The workspace is torch/distributed (the package the rules care about);
// COLLVET_BENCH_WHOLE_TORCH=1 opens the whole torch tree instead. Each
// iteration is one session with 10 edits. Run:
//
//	go test ./cmd/collvet/internal/lsp -run '^$' -bench EditorTorch -benchtime 3x
func BenchmarkEditorTorch(b *testing.B) {
	torch := torchDir()
	if torch == "" {
		b.Skip("torch sources not found (set COLLVET_TORCH_DIR)")
	}
	bin := filepath.Join(b.TempDir(), "collvet")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/collvet/collvet/cmd/collvet").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	ws := filepath.Join(b.TempDir(), "torch")
	if err := copyPy(torch, ws); err != nil {
		b.Fatal(err)
	}
	root := filepath.Join(ws, "distributed")
	if os.Getenv("COLLVET_BENCH_WHOLE_TORCH") == "1" {
		root = ws
	}
	// The workspace's own configuration ends configuration discovery.
	if err := os.WriteFile(filepath.Join(root, "pyproject.toml"), []byte("[tool.collvet]\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	module := filepath.Join(ws, "distributed", "distributed_c10d.py")
	if _, err := os.Stat(module); err != nil {
		b.Fatal(err)
	}
	for _, debounce := range []string{"150ms", "0s"} {
		b.Run("debounce="+debounce, func(b *testing.B) {
			var firsts, edits, bursts, comments, firstCPU, editCPU []time.Duration
			for i := 0; i < b.N; i++ {
				r := editorSession(b, bin, debounce, root, module, 10)
				firsts = append(firsts, r.first)
				edits = append(edits, r.edits...)
				bursts = append(bursts, r.bursts...)
				comments = append(comments, r.comments...)
				firstCPU = append(firstCPU, r.firstCPU)
				editCPU = append(editCPU, r.editCPU...)
			}
			b.ReportMetric(ms(median(firsts)), "first-ms")
			b.ReportMetric(ms(median(edits)), "edit-ms")
			b.ReportMetric(ms(maxDur(edits)), "edit-max-ms")
			b.ReportMetric(ms(median(bursts)), "burst-ms")
			if len(comments) > 0 {
				b.ReportMetric(ms(median(comments)), "comment-ms")
			}
			if len(editCPU) > 0 {
				// CPU time of the server process (Linux /proc, 10 ms
				// ticks): steadier than wall time on a shared machine.
				b.ReportMetric(ms(median(firstCPU)), "first-cpu-ms")
				b.ReportMetric(ms(median(editCPU)), "edit-cpu-ms")
			}
		})
	}
}

// sessionResult is what one editor session measured.
type sessionResult struct {
	first    time.Duration   // initialize → first publish of the opened module
	edits    []time.Duration // didChange → publish of that version
	bursts   []time.Duration // second of two quick edits → its publish
	comments []time.Duration // comment-only didChange → publish of that version
	firstCPU time.Duration   // server CPU time up to the first publish (0 off Linux)
	editCPU  []time.Duration // server CPU time per edit (empty off Linux)
}

// editorSession runs one session.
func editorSession(b *testing.B, bin, debounce, ws, module string, nEdits int) sessionResult {
	cmd := exec.Command(bin, "lsp", "--debounce", debounce)
	cmd.Dir = ws
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer cmd.Process.Kill()
	published := make(chan PublishDiagnosticsParams, 1000)
	conn := jsonrpc2.NewConn(context.Background(),
		jsonrpc2.NewBufferedStream(rwc{stdout, stdin}, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
			if req.Method == "textDocument/publishDiagnostics" {
				var p PublishDiagnosticsParams
				json.Unmarshal(*req.Params, &p)
				published <- p
			}
			return nil, nil
		}))
	defer conn.Close()
	ctx := context.Background()
	uri := pathToURI(module)
	wait := func(version int) time.Duration {
		start := time.Now()
		timeout := time.After(10 * time.Minute)
		for {
			select {
			case p := <-published:
				if p.URI == uri && p.Version != nil && *p.Version == version {
					return time.Since(start)
				}
			case <-timeout:
				b.Fatalf("no diagnostics for version %d of %s; server log:\n%s", version, uri, stderr.String())
			}
		}
	}

	text, err := os.ReadFile(module)
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if err := conn.Call(ctx, "initialize", map[string]any{
		"rootUri":          pathToURI(ws),
		"workspaceFolders": []WorkspaceFolder{{URI: pathToURI(ws), Name: "torch"}},
		"capabilities":     map[string]any{},
	}, nil); err != nil {
		b.Fatal(err)
	}
	conn.Notify(ctx, "initialized", struct{}{})
	conn.Notify(ctx, "textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{
		URI: uri, LanguageID: "python", Version: 1, Text: string(text)}})
	wait(1)
	res := sessionResult{first: time.Since(start)}
	cpu0, hasCPU := procCPU(cmd.Process.Pid)
	res.firstCPU = cpu0

	// One-line edits: rewrite the text of a comment-free line near the top
	// (a module docstring line or an import), alternating two contents.
	line := firstCodeLine(text)
	for i := 0; i < nEdits; i++ {
		version := i + 2
		start := time.Now()
		conn.Notify(ctx, "textDocument/didChange", DidChangeTextDocumentParams{
			TextDocument: VersionedTextDocumentIdentifier{URI: uri, Version: version},
			ContentChanges: []TextDocumentContentChangeEvent{{
				Range: &Range{Start: Position{line, 0}, End: Position{line, 0}},
				Text:  fmt.Sprintf("_collvet_bench_%d = %d\n", i, i),
			}},
		})
		wait(version)
		res.edits = append(res.edits, time.Since(start))
		if hasCPU {
			cpu, _ := procCPU(cmd.Process.Pid)
			res.editCPU = append(res.editCPU, cpu-cpu0)
			cpu0 = cpu
		}
	}
	// Bursts: a second edit while the first one's analysis runs; the
	// server drops the obsolete analysis and publishes the second.
	edit := func(version int) {
		conn.Notify(ctx, "textDocument/didChange", DidChangeTextDocumentParams{
			TextDocument: VersionedTextDocumentIdentifier{URI: uri, Version: version},
			ContentChanges: []TextDocumentContentChangeEvent{{
				Range: &Range{Start: Position{line, 0}, End: Position{line, 0}},
				Text:  fmt.Sprintf("_collvet_burst_%d = %d\n", version, version),
			}},
		})
	}
	version := nEdits + 2
	for i := 0; i < 3; i++ {
		edit(version)
		time.Sleep(300 * time.Millisecond)
		start := time.Now()
		edit(version + 1)
		wait(version + 1)
		res.bursts = append(res.bursts, time.Since(start))
		version += 2
	}
	// Comment edits: rewrite a comment-only line below the inserted ones.
	// The module's tokens do not change, so the server answers from the
	// previous analysis (pyfront's reuse) and runs only the rules again.
	if cl, old := commentLine(text, line); cl >= 0 {
		at := cl + nEdits
		for i := 0; i < 5; i++ {
			next := fmt.Sprintf("# collvet bench comment %d", i)
			start := time.Now()
			conn.Notify(ctx, "textDocument/didChange", DidChangeTextDocumentParams{
				TextDocument: VersionedTextDocumentIdentifier{URI: uri, Version: version},
				ContentChanges: []TextDocumentContentChangeEvent{{
					Range: &Range{Start: Position{at, 0}, End: Position{at, len(utf16.Encode([]rune(old)))}},
					Text:  next,
				}},
			})
			wait(version)
			res.comments = append(res.comments, time.Since(start))
			old = next
			version++
		}
	}
	conn.Call(ctx, "shutdown", nil, nil)
	conn.Notify(ctx, "exit", nil)
	cmd.Wait()
	if !hasCPU {
		res.firstCPU = 0
	}
	return res
}

// procCPU returns the user+system CPU time of process pid from
// /proc/PID/stat (Linux; USER_HZ is 100 there).
func procCPU(pid int) (time.Duration, bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	// Fields after the parenthesised command name: state is field 3,
	// utime 14 and stime 15.
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 13 {
		return 0, false
	}
	var ut, st int64
	fmt.Sscan(f[11], &ut)
	fmt.Sscan(f[12], &st)
	return time.Duration(ut+st) * 10 * time.Millisecond, true
}

// commentLine returns the first line after line that holds only a
// comment, outside brackets as far as a line-by-line look can tell (the
// previous line does not end in an opening bracket or a comma), and its
// text; -1 if none.
func commentLine(src []byte, line int) (int, string) {
	lines := strings.Split(string(src), "\n")
	for i := line + 1; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		prev := strings.TrimSpace(lines[i-1])
		if strings.HasPrefix(t, "#") && prev == "" {
			return i, lines[i]
		}
	}
	return -1, ""
}

// firstCodeLine returns the 0-based line after the module's leading
// comments, docstring and __future__ imports: inserting an assignment there
// keeps the module valid.
func firstCodeLine(src []byte) int {
	sc := bufio.NewScanner(strings.NewReader(string(src)))
	n, last := 0, 0
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "from __future__") {
			last = n + 1
		}
		n++
	}
	if last > 0 {
		return last
	}
	return 0
}

type rwc struct {
	io.Reader
	io.WriteCloser
}

// torchDir finds the torch sources: $COLLVET_TORCH_DIR, else the torch
// package of the system's python3.
func torchDir() string {
	if d := os.Getenv("COLLVET_TORCH_DIR"); d != "" {
		return d
	}
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		out, err := exec.Command(py, "-c", `import importlib.util, os; print(os.path.dirname(importlib.util.find_spec("torch").origin))`).Output()
		if err == nil {
			if d := strings.TrimSpace(string(out)); d != "" {
				return d
			}
		}
	}
	return ""
}

// copyPy copies the .py files of src to dst.
func copyPy(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".py") {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func maxDur(ds []time.Duration) time.Duration {
	var m time.Duration
	for _, d := range ds {
		m = max(m, d)
	}
	return m
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/collvet/collvet/cmd/collvet/internal/driver"
)

// TestLSPSessionsMatchFreshAnalysis is a differential test of the editor
// path: random edits (code and comment-only, which the analysis cache
// answers without re-analysing), saves, closes and files changed on
// disk, through `collvet lsp` with the real analysis and its cache. When
// the session settles, what the server last published for every file
// must equal a fresh analysis of the same texts.
func TestLSPSessionsMatchFreshAnalysis(t *testing.T) {
	useReal(t)
	const helperBarrier = "import torch.distributed as dist\n\n\ndef helper():\n    dist.barrier()\n"
	texts := map[string][]string{
		"a.py": {
			"import torch.distributed as dist\n\n\ndef f(t):\n    if dist.get_rank() == 0:\n        dist.barrier()\n",
			"import torch.distributed as dist\n\n\ndef f(t):\n    if dist.get_rank() == 0:\n        dist.barrier()  # one rank\n",
			"import torch.distributed as dist\n\n\ndef f(t):\n    dist.all_reduce(t, async_op=True)\n",
			"import torch.distributed as dist\nfrom b import helper\n\nif dist.get_rank() == 0:\n    helper()\n",
			"x = 1\n",
		},
		"b.py": {
			helperBarrier,
			helperBarrier + "# trailing comment\n",
			"def helper():\n    return 1\n",
			"import torch.distributed as dist\n\n\ndef helper():\n    \"\"\"Docstring.\"\"\"\n    dist.barrier()\n",
		},
		"c.py": {
			"import torch.distributed as dist\n\nwork = dist.all_reduce(1, async_op=True)\n",
			"y = 2\n",
			"def broken(:\n",
		},
	}
	names := []string{"a.py", "b.py", "c.py"}
	for seed := int64(1); seed <= 8; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			rng := rand.New(rand.NewSource(seed))
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte("[tool.collvet]\n"), 0o644)
			for _, n := range names {
				os.WriteFile(filepath.Join(dir, n), []byte(texts[n][rng.Intn(len(texts[n]))]), 0o644)
			}
			var mu sync.Mutex
			latest := map[string][]string{} // path → "line:col CODE" of the last publish
			versions := map[string]int{}
			lsp := startLSPCommand(t, func(params json.RawMessage) {
				var p struct {
					URI         string
					Version     *int
					Diagnostics []struct {
						Range struct{ Start struct{ Line, Character int } }
						Code  string
					}
				}
				json.Unmarshal(params, &p)
				var ds []string
				for _, d := range p.Diagnostics {
					ds = append(ds, fmt.Sprintf("%d:%d %s", d.Range.Start.Line+1, d.Range.Start.Character+1, d.Code))
				}
				sort.Strings(ds)
				path := strings.TrimPrefix(p.URI, "file://")
				mu.Lock()
				latest[path] = ds
				if p.Version != nil {
					versions[path] = *p.Version
				}
				mu.Unlock()
			})
			conn := lsp.conn
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			lsp.initialize(ctx, t, dir)
			open := map[string]string{} // path → text
			version := map[string]int{}
			for op := 0; op < 60; op++ {
				n := names[rng.Intn(len(names))]
				path := filepath.Join(dir, n)
				uri := "file://" + filepath.ToSlash(path)
				text := texts[n][rng.Intn(len(texts[n]))]
				switch k := rng.Intn(6); {
				case k == 0 && open[path] == "":
					if b, err := os.ReadFile(path); err == nil && rng.Intn(2) == 0 {
						text = string(b)
					}
					version[path]++
					open[path] = text
					lsp.open(ctx, uri, version[path], text)
				case k <= 2 && open[path] != "":
					version[path]++
					open[path] = text
					conn.Notify(ctx, "textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": version[path]}, "contentChanges": []map[string]any{{"text": text}}})
				case k == 3 && open[path] != "":
					os.WriteFile(path, []byte(open[path]), 0o644)
					conn.Notify(ctx, "textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
				case k == 4 && open[path] != "":
					delete(open, path)
					conn.Notify(ctx, "textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
				case k == 5 && open[path] == "":
					os.WriteFile(path, []byte(text), 0o644)
					conn.Notify(ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{{"uri": uri, "type": 2}}})
				}
				time.Sleep(time.Duration(rng.Intn(30)) * time.Millisecond)
			}

			// The fresh analysis of the final texts: files on disk, open
			// buffers over them.
			overlay := map[string][]byte{}
			for p, text := range open {
				overlay[p] = []byte(text)
			}
			rep, err := driver.Analyze(context.Background(), driver.Request{Paths: []string{dir}, Overlay: overlay, NoGoModules: true})
			if err != nil {
				t.Fatal(err)
			}
			want := map[string][]string{}
			for _, d := range rep.Diagnostics {
				want[d.Pos.Path] = append(want[d.Pos.Path], fmt.Sprintf("%d:%d %s", d.Pos.Line, d.Pos.Col, d.Rule))
			}
			for p := range want {
				sort.Strings(want[p])
			}
			compare := func() []string {
				mu.Lock()
				defer mu.Unlock()
				var bad []string
				for p := range open {
					if versions[p] != version[p] {
						bad = append(bad, fmt.Sprintf("%s: last published version %d, want %d", p, versions[p], version[p]))
					}
				}
				for _, n := range names {
					p := filepath.Join(dir, n)
					if strings.Join(latest[p], ",") != strings.Join(want[p], ",") {
						bad = append(bad, fmt.Sprintf("%s: published %v, a fresh analysis gives %v", n, latest[p], want[p]))
					}
				}
				return bad
			}
			t.Logf("open %d, fresh findings %v", len(open), want)
			deadline := time.Now().Add(20 * time.Second)
			for bad := compare(); len(bad) > 0; bad = compare() {
				if time.Now().After(deadline) {
					t.Fatalf("the session did not settle on a fresh analysis's findings:\n%s\nserver log:\n%s", strings.Join(bad, "\n"), lsp.stderr.String())
				}
				time.Sleep(20 * time.Millisecond)
			}
			lsp.shutdown(ctx, t)
		})
	}
}

package cli

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

type lspPos struct{ Line, Character int }
type lspRange struct{ Start, End lspPos }
type lspEdit struct {
	Range   lspRange
	NewText string
}

// applyEdits applies LSP text edits (ASCII text: UTF-16 columns are byte
// columns) the way an editor does, last edit first.
func applyEdits(text string, edits []lspEdit) string {
	offset := func(p lspPos) int {
		lines := strings.SplitAfter(text, "\n")
		off := 0
		for i := 0; i < p.Line && i < len(lines); i++ {
			off += len(lines[i])
		}
		return off + p.Character
	}
	sort.Slice(edits, func(i, j int) bool {
		a, b := edits[i].Range.Start, edits[j].Range.Start
		return a.Line > b.Line || a.Line == b.Line && a.Character > b.Character
	})
	for _, e := range edits {
		text = text[:offset(e.Range.Start)] + e.NewText + text[offset(e.Range.End):]
	}
	return text
}

// A real rule's fix with two edits in one file (CV403 moves set_device
// above the process group's creation: an insertion and a deletion),
// through the lsp command: applied as an editor does, it gives the
// expected code, and the finding clears.
func TestLSPMultiEditQuickFix(t *testing.T) {
	useReal(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte("[tool.collvet]\n"), 0o644)
	path := filepath.Join(dir, "setup.py")
	text := "import os\nimport torch\nimport torch.distributed as dist\n\n\ndef setup():\n" +
		"    local_rank = int(os.environ[\"LOCAL_RANK\"])\n" +
		"    dist.init_process_group(backend=\"xccl\")\n" +
		"    torch.xpu.set_device(local_rank)\n" +
		"    return local_rank\n"
	want := "import os\nimport torch\nimport torch.distributed as dist\n\n\ndef setup():\n" +
		"    local_rank = int(os.environ[\"LOCAL_RANK\"])\n" +
		"    torch.xpu.set_device(local_rank)\n" +
		"    dist.init_process_group(backend=\"xccl\")\n" +
		"    return local_rank\n"
	os.WriteFile(path, []byte(text), 0o644)

	published := make(chan map[string]any, 10)
	lsp := startLSPCommand(t, publishInto(published))
	conn := lsp.conn
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	uri := "file://" + filepath.ToSlash(path)
	lsp.initialize(ctx, t, dir)
	lsp.open(ctx, uri, 1, text)
	wait := func(ok func(diags []any) bool) []any {
		for {
			select {
			case p := <-published:
				diags, _ := p["diagnostics"].([]any)
				if p["uri"] == uri && ok(diags) {
					return diags
				}
			case <-ctx.Done():
				t.Fatalf("no matching diagnostics; stderr: %s", lsp.stderr.String())
			}
		}
	}
	diags := wait(func(d []any) bool { return len(d) > 0 })
	d := diags[0].(map[string]any)
	if d["code"] != "CV403" {
		t.Fatalf("diagnostic = %v", d)
	}
	var actions []struct {
		Title string
		Edit  struct{ Changes map[string][]lspEdit }
	}
	if err := conn.Call(ctx, "textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        d["range"],
		"context":      map[string]any{"diagnostics": diags},
	}, &actions); err != nil {
		t.Fatal(err)
	}
	var edits []lspEdit
	for _, a := range actions {
		if strings.HasPrefix(a.Title, "Bind the device") {
			edits = a.Edit.Changes[uri]
		}
	}
	if len(edits) != 2 {
		t.Fatalf("the fix's edits = %+v (actions %+v), want an insertion and a deletion", edits, actions)
	}
	if got := applyEdits(text, edits); got != want {
		t.Fatalf("fixed text = %q, want %q", got, want)
	}
	conn.Notify(ctx, "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": want}}})
	wait(func(d []any) bool { return len(d) == 0 })
	lsp.shutdown(ctx, t)
}

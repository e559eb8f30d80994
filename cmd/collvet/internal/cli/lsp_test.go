package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

type pipeRWC struct {
	io.Reader
	io.WriteCloser
}

// lspCommand is `collvet lsp --debounce 1ms` run in-process over pipes,
// with a client connected to it.
type lspCommand struct {
	conn   *jsonrpc2.Conn
	done   chan int // the command's exit code
	stderr *bytes.Buffer
}

// startLSPCommand starts the command; publish receives the params of each
// textDocument/publishDiagnostics it sends. The connection closes with
// the test.
func startLSPCommand(t *testing.T, publish func(params json.RawMessage)) *lspCommand {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &lspCommand{done: make(chan int, 1), stderr: &bytes.Buffer{}}
	go func() {
		c.done <- Main([]string{"lsp", "--debounce", "1ms"}, inR, outW, c.stderr)
		outW.Close()
	}()
	c.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(pipeRWC{outR, inW}, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
			if req.Method == "textDocument/publishDiagnostics" && req.Params != nil {
				publish(*req.Params)
			}
			return nil, nil
		}))
	t.Cleanup(func() { c.conn.Close() })
	return c
}

// initialize opens a session on the workspace dir.
func (c *lspCommand) initialize(ctx context.Context, t *testing.T, dir string) {
	t.Helper()
	if err := c.conn.Call(ctx, "initialize", map[string]any{"rootUri": "file://" + filepath.ToSlash(dir), "capabilities": map[string]any{}}, nil); err != nil {
		t.Fatal(err)
	}
	c.conn.Notify(ctx, "initialized", map[string]any{})
}

// open sends didOpen for a Python document.
func (c *lspCommand) open(ctx context.Context, uri string, version int, text string) {
	c.conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "python", "version": version, "text": text}})
}

// publishInto is a startLSPCommand callback that sends each
// publishDiagnostics' parameters, decoded as JSON objects, to ch.
func publishInto(ch chan<- map[string]any) func(json.RawMessage) {
	return func(params json.RawMessage) {
		var p map[string]any
		json.Unmarshal(params, &p)
		ch <- p
	}
}

// shutdown ends the session and requires a clean exit.
func (c *lspCommand) shutdown(ctx context.Context, t *testing.T) {
	t.Helper()
	c.conn.Call(ctx, "shutdown", nil, nil)
	c.conn.Notify(ctx, "exit", nil)
	if code := <-c.done; code != ExitOK {
		t.Errorf("exit %d; stderr: %s", code, c.stderr.String())
	}
}

// The lsp command wires the server to the driver: a document opened in a
// workspace gets the driver's findings (here the test rule's), from the
// unsaved buffer.
func TestLSPCommandPublishesDriverFindings(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte("[tool.collvet]\n"), 0o644)
	path := filepath.Join(dir, "m.py")
	os.WriteFile(path, []byte("x = 1\n"), 0o644)

	published := make(chan map[string]any, 10)
	lsp := startLSPCommand(t, publishInto(published))
	conn := lsp.conn
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	uri := "file://" + filepath.ToSlash(path)
	lsp.initialize(ctx, t, dir)
	lsp.open(ctx, uri, 1, "import torch.distributed as dist\ndist.all_reduce(t)\n")
	for {
		select {
		case p := <-published:
			diags, _ := p["diagnostics"].([]any)
			if p["uri"] != uri || len(diags) == 0 {
				continue
			}
			d := diags[0].(map[string]any)
			if d["code"] != "CV990" {
				t.Errorf("diagnostic = %v", d)
			}
			// The quick fix that ignores the finding leaves the reason to
			// its author.
			var actions []struct {
				Title string
				Edit  struct {
					Changes map[string][]struct{ NewText string }
				}
			}
			err := conn.Call(ctx, "textDocument/codeAction", map[string]any{
				"textDocument": map[string]any{"uri": uri},
				"range":        d["range"],
				"context":      map[string]any{"diagnostics": diags},
			}, &actions)
			found, foundFile := false, false
			for _, a := range actions {
				es := a.Edit.Changes[uri]
				switch a.Title {
				case "Ignore on this line, then write why (CV990)":
					found = len(es) == 1 && es[0].NewText == "  # collvet: ignore[CV990] "
				case "Ignore in this file, then write why (CV990)":
					foundFile = len(es) == 1 && es[0].NewText == "# collvet: file-ignore[CV990] \n"
				}
			}
			if err != nil || !found || !foundFile {
				t.Errorf("code actions: %v %+v", err, actions)
			}
			lsp.shutdown(ctx, t)
			return
		case <-ctx.Done():
			t.Fatalf("no diagnostics from the driver; stderr: %s", lsp.stderr.String())
		}
	}
}

func TestLSPCommandRejectsArguments(t *testing.T) {
	code, _, errOut := run(t, "", "lsp", "somefile.py")
	if code != ExitError || errOut == "" {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// --debounce 0 means no wait (the server's option 0 would mean the default).
func TestLSPDebounceFlag(t *testing.T) {
	if got := lspDebounce(0); got >= 0 {
		t.Errorf("lspDebounce(0) = %v, want negative (no wait)", got)
	}
	if got := lspDebounce(time.Second); got != time.Second {
		t.Errorf("lspDebounce(1s) = %v", got)
	}
}

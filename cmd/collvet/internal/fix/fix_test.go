package fix

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/collvet/collvet/pyfront/parser"
	"github.com/collvet/collvet/rules"
)

func setup(t *testing.T, content string, mode os.FileMode) (string, *rules.File) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "train.py")
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	return p, &rules.File{Path: p, Lang: rules.Python, Src: []byte(strings.ReplaceAll(content, "\r\n", "\n"))}
}

// insertBefore is a fix inserting text at the start of line.
func insertBefore(path string, line int, text string) rules.Diagnostic {
	return rules.Diagnostic{Rule: "CV102", Pos: rules.Pos{Path: path, Line: line, Col: 1},
		Fixes: []rules.Fix{{Title: "insert", Edits: []rules.Edit{{
			Pos: rules.Pos{Path: path, Line: line, Col: 1, EndLine: line, EndCol: 1}, NewText: text}}}}}
}

func replace(path string, line, col, endCol int, text string) rules.Diagnostic {
	return rules.Diagnostic{Rule: "CV401", Pos: rules.Pos{Path: path, Line: line, Col: col},
		Fixes: []rules.Fix{{Title: "replace", Edits: []rules.Edit{{
			Pos: rules.Pos{Path: path, Line: line, Col: col, EndLine: line, EndCol: endCol}, NewText: text}}}}}
}

const src = "import torch.distributed as dist\n\ndef step(t):\n    dist.all_reduce(t, async_op=True)\n    return t\n"

func TestApplyKeepsModeAndReparses(t *testing.T) {
	p, f := setup(t, src, 0o750)
	diags := []rules.Diagnostic{
		insertBefore(p, 4, "    torch.autograd.set_multithreading_enabled(False)\n"),
		replace(p, 4, 5, 38, "dist.all_reduce(t, async_op=True).wait()"),
	}
	changes, skips := Plan([]*rules.File{f}, diags)
	if len(skips) != 0 || len(changes) != 1 {
		t.Fatalf("changes %d, skips %v", len(changes), skips)
	}
	if err := changes[0].Write(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	want := "import torch.distributed as dist\n\ndef step(t):\n    torch.autograd.set_multithreading_enabled(False)\n    dist.all_reduce(t, async_op=True).wait()\n    return t\n"
	if string(got) != want {
		t.Errorf("fixed file:\n%s\nwant:\n%s", got, want)
	}
	if _, errs := parser.ParseFile(p, got); len(errs) > 0 {
		t.Errorf("fixed file does not parse: %v", errs)
	}
	fi, _ := os.Stat(p)
	if fi.Mode().Perm() != 0o750 {
		t.Errorf("mode = %v, want 0750", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestFileChangedSinceReadIsNotTouched(t *testing.T) {
	// Changed between analysis and planning.
	p, f := setup(t, src, 0o644)
	os.WriteFile(p, []byte(src+"# edited\n"), 0o644)
	changes, skips := Plan([]*rules.File{f}, []rules.Diagnostic{insertBefore(p, 4, "    x = 1\n")})
	if len(changes) != 0 || len(skips) != 1 || !strings.Contains(skips[0].Reason, "changed since") {
		t.Errorf("changes %d, skips %v", len(changes), skips)
	}
	// Changed between planning and writing.
	p, f = setup(t, src, 0o644)
	changes, _ = Plan([]*rules.File{f}, []rules.Diagnostic{insertBefore(p, 4, "    x = 1\n")})
	edited := src + "# edited meanwhile\n"
	os.WriteFile(p, []byte(edited), 0o644)
	if err := changes[0].Write(); !errors.Is(err, ErrChanged) {
		t.Errorf("Write = %v, want ErrChanged", err)
	}
	if got, _ := os.ReadFile(p); string(got) != edited {
		t.Errorf("file was touched: %q", got)
	}
	if entries, _ := os.ReadDir(filepath.Dir(p)); len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestCRLFAndBOMPreserved(t *testing.T) {
	crlf := "\xef\xbb\xbfa = 1\r\nb = 2\r\n"
	p, f := setup(t, crlf, 0o644)
	f.Src = []byte("a = 1\nb = 2\n") // what a front end sees: no BOM, \n
	changes, skips := Plan([]*rules.File{f}, []rules.Diagnostic{insertBefore(p, 2, "c = 3\n"), replace(p, 1, 5, 6, "9")})
	if len(changes) != 1 {
		t.Fatalf("skips %v", skips)
	}
	if got := string(changes[0].New); got != "\xef\xbb\xbfa = 9\r\nc = 3\r\nb = 2\r\n" {
		t.Errorf("new = %q", got)
	}
}

func TestOverlappingFixesSkipped(t *testing.T) {
	p, f := setup(t, src, 0o644)
	changes, skips := Plan([]*rules.File{f}, []rules.Diagnostic{
		replace(p, 4, 5, 20, "A"),
		replace(p, 4, 10, 25, "B"),
	})
	if len(changes) != 1 || changes[0].Fixes != 1 || len(skips) != 1 {
		t.Fatalf("changes %v, skips %v", changes, skips)
	}
	if !strings.Contains(string(changes[0].New), "    A") {
		t.Errorf("first fix (by position) not applied: %s", changes[0].New)
	}
}

func TestValidateRejectsBrokenFix(t *testing.T) {
	p, f := setup(t, src, 0o644)
	changes, skips := Plan([]*rules.File{f}, []rules.Diagnostic{replace(p, 4, 5, 9, "def (")})
	if len(changes) != 0 || len(skips) != 1 || !strings.Contains(skips[0].Reason, "would not parse") {
		t.Errorf("changes %d, skips %v", len(changes), skips)
	}
}

func TestUnifiedDiff(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
	new := "a\nb\nc\nX\nd\ne\nf\ng\nh\ni\nJ\n"
	got := Unified("f.py", []byte(old), []byte(new))
	want := `--- f.py
+++ f.py
@@ -1,10 +1,11 @@
 a
 b
 c
+X
 d
 e
 f
 g
 h
 i
-j
+J
`
	if got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
	far := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n"
	far2 := strings.Replace(strings.Replace(far, "2\n", "two\n", 1), "19\n", "nineteen\n", 1)
	got = Unified("g.py", []byte(far), []byte(far2))
	if strings.Count(got, "@@ -") != 2 || !strings.Contains(got, "@@ -1,5 +1,5 @@") || !strings.Contains(got, "@@ -16,5 +16,5 @@") {
		t.Errorf("two hunks expected:\n%s", got)
	}
	if Unified("h.py", []byte("x\n"), []byte("x\n")) != "" {
		t.Error("diff of equal texts is not empty")
	}
	if got := Unified("n.py", []byte("x"), []byte("y")); !strings.Contains(got, "\\ No newline at end of file") {
		t.Errorf("missing newline marker:\n%s", got)
	}
}

package pyfront

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/collvet/collvet/pyfront/resolve"
	"github.com/collvet/collvet/pyfront/scanner"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// Reusing the previous analysis when no file's code changed.
//
// What the analysis reads from a module is its tokens: their kinds, text
// and positions, except the text of a statement made of string literals
// only (a docstring), which nothing reads. An edit that leaves every
// module's tokens as they were (a comment written or changed at the end
// of a line or on a line of its own, a docstring line retyped) cannot
// change the call graph, the contexts or anything the model derives from
// them, so a Load with a Cache hands back the previous Result with the
// new sources in it. The rules and the suppression
// comments, which also read the source text, run again on it (the
// driver's work after Load). Comments inside brackets are compared too:
// the model quotes multi-line expressions (a rank test, a condition) from
// the source, comments included. So are the project files the model
// reads (pyproject.toml, setup.cfg, requirements*.txt).
//
// Files on disk are compared by size and modification time first and
// read only when those differ; open buffers by content.

// racyWindow: modification times closer than this to the snapshot are
// not trusted (file systems with coarse timestamps).
const racyWindow = 2 * time.Second

// snapshot is what the previous full Load of a Cache saw.
type snapshot struct {
	files   []fileState
	project [32]byte // hash of the project files in the roots
	roots   []string
	tables  *api.Tables
	pycg    bool
	result  *Result
	// taken: when the Load began. A modification time this recent may
	// be shared by a later write (the "racy git" problem), so such files
	// are read and hashed rather than trusted by their time.
	taken time.Time
}

type fileState struct {
	path, module string
	overlay      bool
	size         int64
	mtime        time.Time
	sum          [32]byte
	// src is the decoded source the result was built from, for a file
	// that parsed without errors (nil otherwise: a syntax error's
	// position may be a newline's, which sameCode does not compare).
	src []byte
}

// remember records a full Load's inputs and result for reuse.
func (c *Cache) remember(s *snapshot) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.snap = s
}

// reuse returns the previous Result updated to the current sources when
// no module's tokens changed since, or nil.
func (c *Cache) reuse(files []resolve.SourceFile, mods []*resolve.Module, overlay map[string][]byte, roots []string, tables *api.Tables, pycg bool) *Result {
	c.mu.Lock()
	s := c.snap
	c.mu.Unlock()
	if s == nil || s.tables != tables || s.pycg != pycg || len(files) != len(s.files) || !slices.Equal(roots, s.roots) {
		return nil
	}
	if projectSum(roots) != s.project {
		return nil
	}
	next := *s
	next.files = append([]fileState(nil), s.files...)
	changed := map[string][]byte{} // path -> new decoded source
	for i, f := range files {
		fs := &next.files[i]
		if f.Path != fs.path || mods[i].Name != fs.module {
			return nil
		}
		var raw []byte
		if b, ok := overlay[f.Path]; ok {
			raw = b
			fs.overlay = true
		} else {
			st, err := os.Stat(f.Path)
			if err != nil {
				return nil
			}
			if !fs.overlay && st.Size() == fs.size && st.ModTime().Equal(fs.mtime) && fs.mtime.Before(s.taken.Add(-racyWindow)) {
				continue
			}
			if raw, err = os.ReadFile(f.Path); err != nil {
				return nil
			}
			fs.overlay, fs.size, fs.mtime = false, st.Size(), st.ModTime()
		}
		if len(raw) > MaxFileSize {
			return nil // a full Load reports it as too large
		}
		sum := sha256.Sum256(raw)
		if sum == fs.sum {
			continue
		}
		src, ok := sameCode(fs.src, raw)
		if !ok {
			return nil
		}
		fs.sum, fs.src = sum, src
		changed[f.Path] = src
	}
	if len(changed) == 0 {
		c.remember(&next)
		return s.result
	}
	res := *s.result
	prog := *res.Program
	prog.Files = make([]*rules.File, len(prog.Files))
	for i, f := range s.result.Program.Files {
		if src, ok := changed[f.Path]; ok {
			nf := *f
			nf.Src = src
			f = &nf
		}
		prog.Files[i] = f
	}
	res.Program = &prog
	res.Bytes, res.Lines = 0, 0
	for _, f := range prog.Files {
		res.Bytes += int64(len(f.Src))
		res.Lines += countLines(f.Src)
	}
	next.result = &res
	c.remember(&next)
	return &res
}

// Unchanged reports whether src, as the new content of path, has the same
// code as the latest full Load saw there (see sameCode): a Load whose only
// change is this one hands back that analysis. The language server uses
// it to skip the typing debounce for such edits (a comment written).
func (c *Cache) Unchanged(path string, src []byte) bool {
	c.mu.Lock()
	s := c.snap
	c.mu.Unlock()
	if s == nil {
		return false
	}
	path = filepath.Clean(path)
	for _, f := range s.files {
		if f.path == path {
			_, same := sameCode(f.src, src)
			return same
		}
	}
	return false
}

// sameCode reports whether raw tokenizes to the same tokens, at the same
// positions, as the decoded source old, with the same comments inside
// brackets; it returns raw decoded. Files that do not tokenize cleanly are
// never the same (their errors may depend on more than the tokens).
func sameCode(old, raw []byte) ([]byte, bool) {
	if old == nil {
		return nil, false
	}
	text, _, err := scanner.Decode(raw)
	if err != nil || bytes.IndexByte(text, 0) >= 0 {
		return nil, false
	}
	a, b := scanner.Tokenize(old, scanner.Options{}), scanner.Tokenize(text, scanner.Options{})
	if len(a.Errors) > 0 || len(b.Errors) > 0 || len(a.Tokens) != len(b.Tokens) {
		return nil, false
	}
	for i, x := range a.Tokens {
		y := b.Tokens[i]
		if x.Kind != y.Kind {
			return nil, false
		}
		if x.Kind == scanner.EOF || x.Kind == scanner.Dedent && trailing(a.Tokens, i) {
			// They sit at the end of the file, after any comment lines
			// there; no node takes their position.
			continue
		}
		if x.Line != y.Line {
			return nil, false
		}
		if x.Kind == scanner.Newline {
			// It follows the line's comment, so its column moves with
			// the comment's length; no node takes its position.
			continue
		}
		if x.Col != y.Col || x.EndLine != y.EndLine || x.EndCol != y.EndCol {
			return nil, false
		}
		if !bytes.Equal(a.Src[x.Off:x.EndOff], b.Src[y.Off:y.EndOff]) && !(x.Kind == scanner.String && standaloneString(a.Tokens, i)) {
			return nil, false
		}
	}
	ca, cb := bracketedComments(a), bracketedComments(b)
	if len(ca) != len(cb) {
		return nil, false
	}
	for i := range ca {
		if ca[i] != cb[i] {
			return nil, false
		}
	}
	return b.Src, true
}

// trailing reports whether toks[i:] are only dedents and the end of the
// file.
func trailing(toks []scanner.Token, i int) bool {
	for _, t := range toks[i:] {
		if t.Kind != scanner.Dedent && t.Kind != scanner.EOF {
			return false
		}
	}
	return true
}

// standaloneString reports whether token i is part of a statement made
// of string literals only (a docstring, or a string used as a comment):
// nothing reads its value, so its text may change.
func standaloneString(toks []scanner.Token, i int) bool {
	j := i
	for j > 0 && toks[j-1].Kind == scanner.String {
		j--
	}
	if j > 0 {
		switch toks[j-1].Kind {
		case scanner.Newline, scanner.Indent, scanner.Dedent:
		default:
			return false
		}
	}
	k := i
	for k+1 < len(toks) && toks[k+1].Kind == scanner.String {
		k++
	}
	return k+1 < len(toks) && toks[k+1].Kind == scanner.Newline
}

// bracketedComments returns the comments inside brackets, with their
// positions.
func bracketedComments(r *scanner.Result) []string {
	var out []string
	depth, ti := 0, 0
	for _, c := range r.Comments {
		for ti < len(r.Tokens) && r.Tokens[ti].Off < c.Off {
			switch r.Tokens[ti].Kind {
			case scanner.LPar, scanner.LSqb, scanner.LBrace:
				depth++
			case scanner.RPar, scanner.RSqb, scanner.RBrace:
				depth--
			}
			ti++
		}
		if depth > 0 {
			out = append(out, fmt.Sprintf("%d:%d:%s", c.Line, c.Col, r.Src[c.Off:c.EndOff]))
		}
	}
	return out
}

// projectSum hashes the project files the model reads in the roots.
func projectSum(roots []string) [32]byte {
	h := sha256.New()
	for _, root := range roots {
		cands := []string{filepath.Join(root, "pyproject.toml"), filepath.Join(root, "setup.cfg")}
		if m, err := filepath.Glob(filepath.Join(root, "requirements*.txt")); err == nil {
			sort.Strings(m)
			cands = append(cands, m...)
		}
		for _, p := range cands {
			h.Write([]byte(p))
			h.Write([]byte{0})
			if data, err := os.ReadFile(p); err == nil {
				h.Write(data)
			}
			h.Write([]byte{0})
		}
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

func countLines(src []byte) int {
	n := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}

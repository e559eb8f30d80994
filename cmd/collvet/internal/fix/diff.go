package fix

import (
	"bytes"
	"fmt"
	"strings"
)

// context is the number of unchanged lines around each hunk.
const context = 3

// Diff returns a unified diff of c (`--- path` / `+++ path`, 3 lines of
// context); "" when nothing changes.
func (c *Change) Diff() string {
	return Unified(c.Path, c.Old, c.New)
}

// Unified returns the unified diff between old and new, labelled path.
func Unified(path string, old, new []byte) string {
	if bytes.Equal(old, new) {
		return ""
	}
	a, b := splitLines(old), splitLines(new)
	ops := diffLines(a, b)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", path, path)
	// Group ops into hunks.
	i := 0
	for i < len(ops) {
		// Find the next change.
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i >= len(ops) {
			break
		}
		start := i - context
		if start < 0 {
			start = 0
		}
		end := i
		for {
			for end < len(ops) && ops[end].kind != ' ' {
				end++
			}
			// Extend over a short run of context to the next change.
			j := end
			for j < len(ops) && ops[j].kind == ' ' && j-end < 2*context {
				j++
			}
			if j < len(ops) && ops[j].kind != ' ' {
				end = j
				continue
			}
			break
		}
		stop := end + context
		if stop > len(ops) {
			stop = len(ops)
		}
		// Line numbers at start.
		al, bl := 1, 1
		for _, o := range ops[:start] {
			if o.kind != '+' {
				al++
			}
			if o.kind != '-' {
				bl++
			}
		}
		ac, bc := 0, 0
		for _, o := range ops[start:stop] {
			if o.kind != '+' {
				ac++
			}
			if o.kind != '-' {
				bc++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(al, ac), hunkRange(bl, bc))
		for _, o := range ops[start:stop] {
			out.WriteByte(o.kind)
			out.WriteString(o.text)
			if !strings.HasSuffix(o.text, "\n") {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = stop
	}
	return out.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start-1)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	return strings.SplitAfter(string(b), "\n")[:strings.Count(string(b), "\n")+boolInt(b[len(b)-1] != '\n')]
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

type diffOp struct {
	kind byte
	text string
}

// maxLCS bounds the quadratic LCS table; larger changed regions are shown
// as a whole replaced block (still a correct diff, just not minimal).
const maxLCS = 4 << 20

// diffLines computes a line diff: common prefix and suffix, then an LCS of
// the middle (fixes change few lines, so the middle is small).
func diffLines(a, b []string) []diffOp {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	var ops []diffOp
	for _, l := range a[:p] {
		ops = append(ops, diffOp{' ', l})
	}
	am, bm := a[p:len(a)-s], b[p:len(b)-s]
	if len(am)*len(bm) > maxLCS {
		for _, l := range am {
			ops = append(ops, diffOp{'-', l})
		}
		for _, l := range bm {
			ops = append(ops, diffOp{'+', l})
		}
	} else {
		n, m := len(am), len(bm)
		t := make([][]int32, n+1)
		for i := range t {
			t[i] = make([]int32, m+1)
		}
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if am[i] == bm[j] {
					t[i][j] = t[i+1][j+1] + 1
				} else if t[i+1][j] >= t[i][j+1] {
					t[i][j] = t[i+1][j]
				} else {
					t[i][j] = t[i][j+1]
				}
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && am[i] == bm[j]:
				ops = append(ops, diffOp{' ', am[i]})
				i++
				j++
			case i < n && (j == m || t[i+1][j] >= t[i][j+1]):
				ops = append(ops, diffOp{'-', am[i]})
				i++
			default:
				ops = append(ops, diffOp{'+', bm[j]})
				j++
			}
		}
	}
	for _, l := range a[len(a)-s:] {
		ops = append(ops, diffOp{' ', l})
	}
	return ops
}

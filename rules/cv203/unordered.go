package cv203

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/internal/rulekit"
)

// unordered checks a read outside CUDA's stream order (Event.Unordered: a
// device buffer handed to CUDA-aware MPI) against the write that produced
// it: only a host synchronize after a device write orders the two. A
// buffer not known to be device memory (a NumPy array, a parameter), or
// one only allocated (cupy.empty), has nothing pending.
func unordered(p *rules.Pass, st *state, v string, pr prod, e *rules.Event, reported map[string]bool) {
	if !pr.device || pr.fresh {
		return
	}
	if st.sync > pr.idx || st.streamSync[sid(pr.stream)] > pr.idx {
		return
	}
	if rules.Exclusive(pr.arm, e.Arm) {
		return
	}
	key := fmt.Sprintf("mpi %s@%d", v, pr.idx)
	if reported[key] || st.quiet && (pr.via != nil || !st.bound[v]) {
		return
	}
	reported[key] = true
	v = local(v)
	op := "an MPI call"
	if e.Site != nil {
		op = rulekit.OpName(e.Site)
	}
	d := rules.Diagnostic{Pos: e.Pos, Message: fmt.Sprintf(
		"%q is written by device work on %s (%s) and passed to %s here with no synchronize in between: "+
			"CUDA-aware MPI reads and writes device memory outside CUDA's stream order (GPUDirect RDMA, its own copy streams), "+
			"so it can send the buffer, or receive into it, before the kernel has finished (silently wrong values)",
		v, stext(pr.text, pr.stream), pr.pos.Short()+pr.viaText(), op)}
	d.Related = append(d.Related, rulekit.Related(pr.pos, fmt.Sprintf("%q written by device work", v)))
	f := p.Prog.File(e.Pos.Path)
	if sync := syncCall(f, pr); sync != "" {
		d.Fixes = append(d.Fixes, rules.Fix{Title: "Synchronize the stream before the MPI call",
			Edits: []rules.Edit{rulekit.InsertBefore(e.Pos.Path, stmtLine(e), indent(f, e)+sync+"\n")}})
	}
	p.Report(d)
}

var (
	importCupyAs = regexp.MustCompile(`(?m)^\s*import\s+cupy\s+as\s+([A-Za-z_][A-Za-z0-9_]*)\s*$`)
	importCupy   = regexp.MustCompile(`(?m)^\s*import\s+cupy\s*$`)
	importTorch  = regexp.MustCompile(`(?m)^\s*import\s+torch\s*$`)
)

// syncCall is the statement that makes the host wait for pr's stream, in
// the names the file imports: the stream's own synchronize() when the
// write was on a named stream, else the current stream's (CuPy's, or
// torch's for a file without CuPy). "" when the file imports neither
// under a name the fix can use.
func syncCall(f *rules.File, pr prod) string {
	if f == nil {
		return ""
	}
	if pr.stream != nil {
		if pr.text != "" && pr.nameable() {
			return pr.text + ".synchronize()"
		}
		return ""
	}
	cupy := ""
	if m := importCupyAs.FindSubmatch(f.Src); m != nil {
		cupy = string(m[1])
	} else if importCupy.Match(f.Src) {
		cupy = "cupy"
	}
	torch := importTorch.Match(f.Src)
	// A tensor's write names torch and no CuPy: wait for torch's stream.
	if w := rulekit.Line(f, pr.pos.Line); torch && (cupy == "" || !strings.Contains(w, cupy+".") && strings.Contains(w, "torch")) {
		return "torch.cuda.current_stream().synchronize()"
	}
	if cupy != "" {
		return cupy + ".cuda.get_current_stream().synchronize()"
	}
	return ""
}

package model

import (
	"strconv"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/callgraph"
)

// Comparison gates: a helper that communicates only when a parameter
// compares so with integer literals,
//
//	@contextmanager
//	def torch_distributed_zero_first(local_rank):
//	    if local_rank not in [-1, 0]:
//	        dist.barrier()
//	    yield
//	    if local_rank == 0:
//	        dist.barrier()
//
// issues neither barrier where it is called with -1: YOLOv5's and
// YOLOv6's validation loader, built on rank 0 only, passes rank=-1 for
// that. Such an op's gate is the parameter with the comparison,
// "local_rank~NotIn:-1,0" (the parameter gates of gates.go are plain
// truth tests), and a call that passes, or defaults to, an integer
// literal the comparison rejects drops the op. A call that passes its
// own parameter forwards the comparison onto it.

// cmpGateSep separates a comparison gate's parameter from its test.
const cmpGateSep = "~"

// cmpGate is the gate of an op that runs where `param op vals` holds
// (vals: one literal, or the elements of an `in` display).
func cmpGate(param string, op ast.CmpOp, vals []int64) string {
	var b strings.Builder
	b.WriteString(param)
	b.WriteString(cmpGateSep)
	b.WriteString(op.String())
	b.WriteByte(':')
	for i, v := range vals {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(v, 10))
	}
	return b.String()
}

// parseCmpGate reads a gate cmpGate made; ok is false for other gates.
func parseCmpGate(gate string) (param string, op ast.CmpOp, vals []int64, ok bool) {
	param, test, ok := strings.Cut(gate, cmpGateSep)
	if !ok {
		return "", 0, nil, false
	}
	name, list, _ := strings.Cut(test, ":")
	found := false
	for o := ast.Eq; o <= ast.NotIn; o++ {
		if o.String() == name {
			op, found = o, true
			break
		}
	}
	if !found {
		return "", 0, nil, false
	}
	for _, s := range strings.Split(list, ",") {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return "", 0, nil, false
		}
		vals = append(vals, v)
	}
	return param, op, vals, true
}

// gateParam is the parameter (or receiver attribute chain) a gate reads.
func gateParam(gate string) string {
	gate = strings.TrimPrefix(gate, negGatePrefix)
	if p, _, ok := strings.Cut(gate, cmpGateSep); ok {
		return p
	}
	return gate
}

// isCmpGate reports a comparison gate.
func isCmpGate(gate string) bool { return strings.Contains(gate, cmpGateSep) }

// cmpHolds evaluates `v op vals`.
func cmpHolds(op ast.CmpOp, vals []int64, v int64) bool {
	switch op {
	case ast.In, ast.NotIn:
		in := false
		for _, x := range vals {
			in = in || x == v
		}
		return in == (op == ast.In)
	case ast.Eq:
		return v == vals[0]
	case ast.NotEq:
		return v != vals[0]
	case ast.Lt:
		return v < vals[0]
	case ast.LtE:
		return v <= vals[0]
	case ast.Gt:
		return v > vals[0]
	case ast.GtE:
		return v >= vals[0]
	}
	return true
}

// complementOp is the operator that holds exactly where op does not.
func complementOp(op ast.CmpOp) (ast.CmpOp, bool) {
	switch op {
	case ast.Eq:
		return ast.NotEq, true
	case ast.NotEq:
		return ast.Eq, true
	case ast.In:
		return ast.NotIn, true
	case ast.NotIn:
		return ast.In, true
	case ast.Lt:
		return ast.GtE, true
	case ast.GtE:
		return ast.Lt, true
	case ast.Gt:
		return ast.LtE, true
	case ast.LtE:
		return ast.Gt, true
	}
	return 0, false
}

// compareTest recognises `p op literal` and `p in [literals]` (and their
// `not`) for a gate parameter p: the gate of the body and that of the
// else arm; "" for other tests.
func (w *gateWalker) compareTest(e ast.Expr) (body, orelse string) {
	negated := false
	if u, ok := e.(*ast.UnaryOp); ok && u.Op == ast.Not {
		e, negated = u.Operand, true
	}
	c, ok := e.(*ast.Compare)
	if !ok || len(c.Ops) != 1 {
		return "", ""
	}
	n, ok := c.Left.(*ast.Name)
	if !ok || !w.params[n.Id] {
		return "", ""
	}
	op := c.Ops[0]
	var vals []int64
	switch op {
	case ast.In, ast.NotIn:
		elts := ast.SeqElts(c.Comparators[0])
		if s, ok := c.Comparators[0].(*ast.Set); ok {
			elts = s.Elts
		}
		for _, x := range elts {
			v, ok := ast.IntLiteral(x)
			if !ok {
				return "", ""
			}
			vals = append(vals, v)
		}
		if len(vals) == 0 {
			return "", ""
		}
	case ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE:
		v, ok := ast.IntLiteral(c.Comparators[0])
		if !ok {
			return "", ""
		}
		vals = []int64{v}
	default:
		return "", ""
	}
	cop, _ := complementOp(op)
	body, orelse = cmpGate(n.Id, op, vals), cmpGate(n.Id, cop, vals)
	if negated {
		body, orelse = orelse, body
	}
	return body, orelse
}

// resolveCmpGate is resolveGate for a comparison gate: off when the call
// passes, or defaults to, an integer literal the comparison rejects; fwd
// the same comparison on the caller's name the call passes.
func resolveCmpGate(callee *callgraph.Func, call *ast.Call, gate string) (off bool, fwd string) {
	param, op, vals, ok := parseCmpGate(gate)
	if !ok {
		return false, ""
	}
	x, dflt, known := boundArg(callee, call, param)
	if x == nil {
		if !known || dflt == nil {
			return false, ""
		}
		x = dflt
	} else if n, ok := x.(*ast.Name); ok {
		return false, cmpGate(n.Id, op, vals)
	}
	if v, ok := ast.IntLiteral(x); ok {
		return !cmpHolds(op, vals, v), ""
	}
	return false, ""
}

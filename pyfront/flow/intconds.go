package flow

import (
	"math"

	"github.com/collvet/collvet/pyfront/ast"
)

// Integer conditions on one subject (`cp_rank > 0`, `rank % 2 == 1`,
// `not step < warmup`) as sets of the integers that satisfy them, so that
// a later test can be seen to exclude the condition a handle was made
// under: a handle made under `if cp_rank > 0:` does not exist in the then
// arm of `if cp_rank == 0:`, which is where no wait is needed.

// span is a closed interval of integers; math.MinInt64 and math.MaxInt64
// stand for the unbounded ends.
type span struct{ lo, hi int64 }

// intSet is a union of disjoint spans in increasing order.
type intSet []span

// intCond is "subject ∈ set", the subject keyed as condKey prints it.
type intCond struct {
	subject string
	set     intSet
}

var everyInt = intSet{{math.MinInt64, math.MaxInt64}}

// complement is the set of integers not in s.
func (s intSet) complement() intSet {
	var out intSet
	next := int64(math.MinInt64)
	open := true // next is a valid lower bound still to be covered
	for _, sp := range s {
		if open && sp.lo > next {
			out = append(out, span{next, sp.lo - 1})
		}
		if sp.hi == math.MaxInt64 {
			open = false
			break
		}
		next = sp.hi + 1
	}
	if open {
		out = append(out, span{next, math.MaxInt64})
	}
	return out
}

// disjoint reports whether no integer lies in both s and t.
func (s intSet) disjoint(t intSet) bool {
	for _, a := range s {
		for _, b := range t {
			if max(a.lo, b.lo) <= min(a.hi, b.hi) {
				return false
			}
		}
	}
	return true
}

// intCondOf reads test as a comparison of one subject with an integer
// constant (either side), or the negation of one.
func (l *lowerer) intCondOf(test ast.Expr) (intCond, bool) {
	if u, ok := test.(*ast.UnaryOp); ok && u.Op == ast.Not {
		c, ok := l.intCondOf(u.Operand)
		if ok {
			c.set = c.set.complement()
		}
		return c, ok
	}
	cmp, ok := test.(*ast.Compare)
	if !ok || len(cmp.Ops) != 1 || len(cmp.Comparators) != 1 {
		return intCond{}, false
	}
	subject, op := cmp.Left, cmp.Ops[0]
	k, isConst := intConst(cmp.Comparators[0])
	if !isConst {
		// 0 < cp_rank: the constant on the left, the comparison mirrored.
		if k, isConst = intConst(cmp.Left); !isConst {
			return intCond{}, false
		}
		subject, op = cmp.Comparators[0], mirrorCmp(op)
	}
	if _, both := intConst(subject); both {
		return intCond{}, false
	}
	var set intSet
	switch op {
	case ast.Eq:
		set = intSet{{k, k}}
	case ast.NotEq:
		set = intSet{{k, k}}.complement()
	case ast.Lt:
		if k == math.MinInt64 {
			return intCond{}, false
		}
		set = intSet{{math.MinInt64, k - 1}}
	case ast.LtE:
		set = intSet{{math.MinInt64, k}}
	case ast.Gt:
		if k == math.MaxInt64 {
			return intCond{}, false
		}
		set = intSet{{k + 1, math.MaxInt64}}
	case ast.GtE:
		set = intSet{{k, math.MaxInt64}}
	default:
		return intCond{}, false
	}
	return intCond{subject: l.condKey(subject), set: set}, true
}

// mirrorCmp is the comparison with its operands swapped: `k < x` is
// `x > k`.
func mirrorCmp(op ast.CmpOp) ast.CmpOp {
	switch op {
	case ast.Lt:
		return ast.Gt
	case ast.LtE:
		return ast.GtE
	case ast.Gt:
		return ast.Lt
	case ast.GtE:
		return ast.LtE
	}
	return op
}

// excludes reports whether some condition in conds cannot hold where c
// does: the same subject, and no integer satisfies both.
func excludes(c intCond, conds []intCond) bool {
	for _, w := range conds {
		if w.subject == c.subject && w.set.disjoint(c.set) {
			return true
		}
	}
	return false
}

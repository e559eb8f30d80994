package flow

import (
	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// Helpers that swallow running out of memory. A helper that allocates
// and hands back None when the allocation fails,
//
//	def create_input(n):
//	    try:
//	        return torch.ones(n).cuda()
//	    except RuntimeError as e:
//	        if "out of memory" in str(e):
//	            return None
//	        raise
//
// moves the out-of-memory handler's decision into its caller: `if x is
// None: return` is taken on the rank whose allocation failed only, and
// the others go on to the collectives after it (EleutherAI's
// communication benchmarks).

// oomNone is where a program helper returns None for an out-of-memory
// error it swallows: the handler, and its `except` clause for messages.
type oomNone struct {
	pos  rules.Pos
	cond string
}

// oomNoneReturn summarises fn (oomNone), nil when no out-of-memory path
// of its own handlers ends by returning None. Only the helper's own
// statements are read.
func (l *lowerer) oomNoneReturn(fn *rules.Function, node ast.Node) *oomNone {
	return summarizeGuarded(&l.memo().oomNones, fn, func() *oomNone {
		body, sub := bodyLowerer(fn, node, l.r)
		if sub == nil || !sub.inFileOf(fn) || !sub.src.mentionsAny(node.Span(), []string{"memory", "OutOfMemory", "OOM"}) {
			return nil
		}
		var found *oomNone
		scopeStmts(body, func(st ast.Stmt) bool {
			if t, ok := st.(*ast.Try); ok {
				for _, h := range t.Handlers {
					if returnsNone(lastStmt(oomPath(h))) {
						found = &oomNone{pos: sub.pos(h.Pos), cond: sub.exceptClause(h)}
						return true
					}
				}
			}
			return false
		})
		return found
	})
}

// returnsNone reports `return` and `return None`.
func returnsNone(s ast.Stmt) bool {
	r, ok := s.(*ast.Return)
	return ok && (r.Value == nil || isNone(r.Value))
}

// markOOMNone records whether local v now holds what a helper returns
// None in place of when it runs out of memory (oomNoneReturn).
func (l *lowerer) markOOMNone(v string, value ast.Expr) {
	var found *oomNone
	if c, ok := value.(*ast.Call); ok && l.notDist == 0 {
		if _, fn := l.callee(c); fn != nil && fn != l.fn {
			if fd, ok := l.r.(FuncDefiner); ok {
				if node := fd.FuncDef(fn); node != nil {
					found = l.oomNoneReturn(fn, node)
				}
			}
		}
	}
	if found == nil {
		delete(l.oomNones, v)
		return
	}
	if l.oomNones == nil {
		l.oomNones = map[string]*oomNone{}
	}
	l.oomNones[v] = found
}

// oomNoneTest returns the handler whose None a test asks about (`x is
// None`, `x is not None`, `not x`, `x`, x from markOOMNone), or nil;
// noneInThen says the test holds where x is None.
func (l *lowerer) oomNoneTest(test ast.Expr) (h *oomNone, noneInThen bool) {
	if len(l.oomNones) == 0 {
		return nil, false
	}
	negated := false
	if u, ok := test.(*ast.UnaryOp); ok && u.Op == ast.Not {
		test, negated = u.Operand, true
	}
	if n, ok := test.(*ast.Name); ok {
		return l.oomNones[n.Id], negated
	}
	if v, isNone, ok := noneTest(test); ok {
		return l.oomNones[v], isNone != negated
	}
	return nil, false
}

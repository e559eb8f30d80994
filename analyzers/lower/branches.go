package lower

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/collvet/collvet/rules"
)

// Rank branches of Go code: `if rank == 0 { C.MPI_Bcast(…) }`.
//
// A variable holds this process's rank when a rank predicate of the
// tables wrote it (MPI_Comm_rank(comm, &rank), ncclCommUserRank), was
// given it (ncclCommInitRank's rank argument) or returned it
// (mpi.WorldRank(), comm.Rank()), in the same function. An if statement
// whose condition reads such a variable, or calls such a predicate, is a
// RankBranch with the collectives its two blocks issue directly; CV301
// compares them (point-to-point ones split by rank are the design).

// branches records the rank branches of every function of the package.
// A parameter that some call of its function passes a rank variable is
// a rank variable too (`step(comm, rank, …)`), a few calls deep.
func (b *builder) branches() {
	ranks := map[*fn]map[types.Object]bool{}
	for _, f := range b.funcs {
		if body := fnBody(f.node); body != nil {
			ranks[f] = b.rankVars(body)
		}
	}
	for round := 0; round < 3; round++ {
		changed := false
		for _, f := range b.funcs {
			for _, it := range f.items {
				if it.kind != itCall || it.callee == nil || it.call == nil || ranks[it.callee] == nil {
					continue
				}
				shift := len(it.ops) - len(it.call.Args) // a method's receiver comes first
				for i, a := range it.call.Args {
					j := i + shift
					if j < 0 || j >= len(it.callee.params) || !b.readsRank(a, ranks[f]) {
						continue
					}
					if p := it.callee.params[j]; !ranks[it.callee][p] {
						ranks[it.callee][p] = true
						changed = true
					}
				}
			}
		}
		if !changed {
			break
		}
	}
	for _, f := range b.funcs {
		body := fnBody(f.node)
		if body == nil {
			continue
		}
		ranks := ranks[f]
		var loops []ast.Node // the enclosing for and range statements
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false // its own function
			case *ast.ForStmt, *ast.RangeStmt:
				loops = append(loops, n)
				ast.Inspect(loopBody(n), visit)
				loops = loops[:len(loops)-1]
				return false
			case *ast.IfStmt:
				if b.readsRank(n.Cond, ranks) {
					b.rankBranch(f, n)
					b.rankExit(f, n, body, loops)
				} else {
					b.contextExit(f, n, body, loops)
				}
			case *ast.SelectStmt:
				b.contextExit(f, n, body, loops)
			}
			return true
		}
		ast.Inspect(body, visit)
	}
}

// loopBody returns a for or range statement's body.
func loopBody(n ast.Node) *ast.BlockStmt {
	switch n := n.(type) {
	case *ast.ForStmt:
		return n.Body
	case *ast.RangeStmt:
		return n.Body
	}
	return nil
}

// rankExit adds the branch of `if rank == 0 { return }` (or break out of
// the enclosing loop) with no else: the ranks that take it skip the
// collectives the function issues after it, and, in a loop, the later
// passes' (the ones before the if too). CV301 reports them as it does
// Python's early exits. A labelled break or a continue is left alone.
func (b *builder) rankExit(f *fn, n *ast.IfStmt, body *ast.BlockStmt, loops []ast.Node) {
	if n.Else != nil {
		return
	}
	b.exitBranch(f, n, n.Cond, n.Body.List, body, loops, rules.RankTest)
}

// exitBranch adds the early-exit branch of guard (an if, or a select's
// case) whose statements stmts end by leaving: what the leaving ranks
// skip after it (see rankExit), for the divergence div of cond.
func (b *builder) exitBranch(f *fn, guard ast.Node, cond ast.Expr, stmts []ast.Stmt, body *ast.BlockStmt, loops []ast.Node, div rules.Divergence) {
	n := guard
	if len(stmts) == 0 {
		return
	}
	// skipped: the span after the if that the leaving ranks never run
	// (to the function's end after a return, to the loop's after a
	// break), and the loop whose earlier statements they skip on the
	// later passes (the outermost after a return, the innermost after a
	// break).
	var skippedEnd token.Pos
	var loop ast.Node
	switch last := stmts[len(stmts)-1].(type) {
	case *ast.ReturnStmt:
		skippedEnd = body.End()
		if len(loops) > 0 {
			loop = loops[0]
		}
	case *ast.BranchStmt:
		if _, inSelect := guard.(*ast.CommClause); inSelect || last.Tok != token.BREAK || last.Label != nil || len(loops) == 0 {
			return // a break in a select's case leaves the select only
		}
		loop = loops[len(loops)-1]
		skippedEnd = loop.End()
	default:
		return
	}
	var after []*rules.OpRef
	for _, it := range f.items {
		if it.kind != itSite && it.kind != itExt {
			continue
		}
		p := it.at.Pos()
		later := p >= n.End() && p < skippedEnd
		again := loop != nil && p >= loop.Pos() && p < n.Pos() // a later pass's, before the if
		if !later && !again {
			continue
		}
		if s := b.sitesAt[p]; s != nil {
			after = append(after, &rules.OpRef{Op: s.Op, Group: s.Group, Pos: s.Pos, Site: s})
		}
	}
	if len(after) == 0 {
		return
	}
	b.prog.Branches = append(b.prog.Branches, &rules.RankBranch{
		Func:       f.rf,
		Guard:      b.nodePos(cond),
		Cond:       b.text(cond),
		EarlyExit:  true,
		After:      after,
		Divergence: div,
	})
}

// contextExit adds the early-exit branch of a wait on a context's end
// (`case <-ctx.Done(): return` in a select, `if ctx.Err() != nil {
// return }`): each rank's context ends at its own moment (a deadline, a
// signal), so the ranks leave after different numbers of passes while
// the others wait in the next collective (empi's solver under
// context.WithTimeout).
func (b *builder) contextExit(f *fn, n ast.Node, body *ast.BlockStmt, loops []ast.Node) {
	switch n := n.(type) {
	case *ast.SelectStmt:
		for _, c := range n.Body.List {
			cc, ok := c.(*ast.CommClause)
			if !ok || cc.Comm == nil {
				continue
			}
			var recv ast.Expr
			switch comm := cc.Comm.(type) {
			case *ast.ExprStmt:
				recv = comm.X
			case *ast.AssignStmt:
				if len(comm.Rhs) == 1 {
					recv = comm.Rhs[0]
				}
			}
			if u, ok := ast.Unparen(recv).(*ast.UnaryExpr); ok && u.Op == token.ARROW && b.contextCall(u.X, "Done") {
				b.exitBranch(f, cc, u.X, cc.Body, body, loops, rules.LocalTiming)
			}
		}
	case *ast.IfStmt:
		if n.Else != nil {
			return
		}
		found := false
		ast.Inspect(n.Cond, func(x ast.Node) bool {
			if e, ok := x.(ast.Expr); ok && !found && (b.contextCall(e, "Err") || b.contextCall(e, "Done")) {
				found = true
			}
			return !found
		})
		if found {
			b.exitBranch(f, n, n.Cond, n.Body.List, body, loops, rules.LocalTiming)
		}
	}
}

// contextCall reports a call of method name on a context.Context.
func (b *builder) contextCall(e ast.Expr, name string) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) > 0 {
		return false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	t := b.pass.TypesInfo.TypeOf(sel.X)
	if t == nil {
		return false
	}
	if named, ok := types.Unalias(t).(*types.Named); ok {
		obj := named.Obj()
		return obj.Pkg() != nil && obj.Pkg().Path() == "context" && obj.Name() == "Context"
	}
	return false
}

func fnBody(n ast.Node) *ast.BlockStmt {
	switch n := n.(type) {
	case *ast.FuncDecl:
		return n.Body
	case *ast.FuncLit:
		return n.Body
	}
	return nil
}

// rankVars collects the variables of body that a rank predicate fills.
func (b *builder) rankVars(body *ast.BlockStmt) map[types.Object]bool {
	vars := map[types.Object]bool{}
	info := b.pass.TypesInfo
	mark := func(e ast.Expr) {
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = u.X
		}
		if c, ok := e.(*ast.CallExpr); ok && len(c.Args) == 1 {
			e = c.Args[0] // C.int(rank)
		}
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if o := info.ObjectOf(id); o != nil {
				vars[o] = true
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			name, _ := b.calleeName(n)
			if p := b.tables.RankPredicates[name]; p != nil && p.Arg.Pos >= 0 && p.Arg.Pos < len(n.Args) {
				mark(n.Args[p.Arg.Pos])
			}
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 && len(n.Lhs) >= 1 {
				if c, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok && b.rankCall(c) {
					mark(n.Lhs[0])
				}
			}
		case *ast.ValueSpec:
			if len(n.Values) == 1 && len(n.Names) >= 1 {
				if c, ok := ast.Unparen(n.Values[0]).(*ast.CallExpr); ok && b.rankCall(c) {
					mark(n.Names[0])
				}
			}
		}
		return true
	})
	return vars
}

// rankCall reports a call of a rank predicate that returns the rank.
func (b *builder) rankCall(c *ast.CallExpr) bool {
	name, _ := b.calleeName(c)
	p := b.tables.RankPredicates[name]
	return p != nil && p.Kind == "call" && p.Arg.Pos < 0
}

// readsRank reports whether cond reads a rank variable or calls a
// predicate that returns the rank.
func (b *builder) readsRank(cond ast.Expr, ranks map[types.Object]bool) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.Ident:
			if o := b.pass.TypesInfo.ObjectOf(n); o != nil && ranks[o] {
				found = true
			}
		case *ast.CallExpr:
			if b.rankCall(n) {
				found = true
			}
		}
		return !found
	})
	return found
}

// rankBranch adds the branch of an if on the rank, with the operations
// of the sites each block holds.
func (b *builder) rankBranch(f *fn, n *ast.IfStmt) {
	ops := func(block ast.Node) []*rules.OpRef {
		if block == nil {
			return nil
		}
		var out []*rules.OpRef
		for _, it := range f.items {
			if it.kind != itSite && it.kind != itExt {
				continue
			}
			p := it.at.Pos()
			if p < block.Pos() || p >= block.End() {
				continue
			}
			if s := b.sitesAt[p]; s != nil {
				out = append(out, &rules.OpRef{Op: s.Op, Group: s.Group, Pos: s.Pos, Site: s})
			}
		}
		return out
	}
	var els ast.Node
	if n.Else != nil {
		els = n.Else
	}
	then, other := ops(n.Body), ops(els)
	if len(then)+len(other) == 0 {
		return
	}
	b.prog.Branches = append(b.prog.Branches, &rules.RankBranch{
		Func:       f.rf,
		Guard:      b.nodePos(n.Cond),
		Cond:       b.text(n.Cond),
		Then:       then,
		Else:       other,
		Divergence: rules.RankTest,
	})
}

// text is an expression's source form.
func (b *builder) text(e ast.Expr) string { return types.ExprString(e) }

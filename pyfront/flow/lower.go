package flow

import (
	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// Lower runs the flow pass over one function. node is the function's
// syntax: *ast.Module (module body), *ast.FunctionDef,
// *ast.AsyncFunctionDef or *ast.Lambda. Nested function and class bodies
// are not entered (they are functions of their own). Lower is safe to call
// with a nil Resolver or node (it does nothing).
func Lower(fn *rules.Function, node ast.Node, r Resolver) {
	if fn == nil || node == nil || r == nil {
		return
	}
	defer func() {
		// The pass must never take the analysis down; a bug here loses
		// only this function's flow facts.
		_ = recover()
	}()
	lowerFunc(fn, node, r)
}

func lowerFunc(fn *rules.Function, node ast.Node, r Resolver) {}

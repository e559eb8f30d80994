package flow

import (
	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// Collective counts that follow the data. Each rank loads its own batch,
// so a loop over the elements of a batch field (`for task in
// batch["tasks"]`) runs a different number of times on each rank, and so
// does a per-key collective on a dict keyed by them
// (`self.log_dict({f"loss_{t}": … for t in per_task}, sync_dist=True)`,
// Lightning#19106, R4). Such collectives become a RankBranch with
// DataCount set. The batch itself, and its keys() and items(), are left
// out: a collated batch has the same fields on every rank.

// lightningSteps are the LightningModule hooks whose second parameter is
// this rank's batch.
var lightningSteps = map[string]bool{"training_step": true, "validation_step": true, "test_step": true, "predict_step": true}

// stepBatch marks the batch parameter of a LightningModule step hook.
func (l *lowerer) stepBatch(fn *ast.FunctionDef) {
	if !lightningSteps[fn.Name] || fn.Args == nil {
		return
	}
	params := fn.Args.Positional()
	if len(params) < 2 || params[0].Arg != "self" {
		return
	}
	if l.batchVars == nil {
		l.batchVars = map[string]bool{}
	}
	l.batchVars[params[1].Arg] = true
}

// dataValued reports whether iterating e yields elements of this rank's
// data: a field of a batch (batch["tasks"], batch.labels), a dict filled
// per such element (dataVars), and what keeps their count: keys(),
// values(), items(), list(), sorted(), enumerate() and comprehensions.
func (l *lowerer) dataValued(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Name:
		return l.dataVars[e.Id]
	case *ast.Subscript, *ast.Attribute:
		return l.batchPart(e) && !l.batchStructure(e)
	case *ast.ListComp:
		return len(e.Generators) > 0 && l.dataValued(e.Generators[0].Iter)
	case *ast.GeneratorExp:
		return len(e.Generators) > 0 && l.dataValued(e.Generators[0].Iter)
	case *ast.DictComp:
		return len(e.Generators) > 0 && l.dataValued(e.Generators[0].Iter)
	case *ast.Call:
		if a, ok := e.Func.(*ast.Attribute); ok {
			switch a.Attr {
			case "keys", "values", "items", "copy":
				return l.dataValued(a.Value)
			case "unique", "tolist", "split", "chunk", "unbind", "nonzero":
				// The distinct values, or the pieces, of a batch field.
				return l.dataValued(a.Value)
			}
			return false
		}
		switch dotted(e.Func) {
		case "list", "tuple", "sorted", "enumerate", "reversed", "dict":
			return len(e.Args) > 0 && l.dataValued(e.Args[0])
		}
	}
	return false
}

// batchStructure reports a slice of the batch (batch[:], batch[1:]): a
// part of the batch's own structure, like the batch itself, not the
// values of one field. (batch.keys() and batch.items() reach dataValued
// as calls on the batch, and stay silent there.)
func (l *lowerer) batchStructure(e ast.Expr) bool {
	if s, ok := e.(*ast.Subscript); ok {
		if _, isSlice := s.Slice.(*ast.Slice); isSlice {
			return true
		}
	}
	return false
}

// dataLoop records a loop over this rank's data whose body issues
// collectives, and marks the dicts and lists the body fills per element.
func (l *lowerer) dataLoop(iter, target ast.Expr, body []ast.Stmt) []string {
	if len(l.batchVars) == 0 && len(l.dataVars) == 0 || !l.dataValued(iter) {
		return nil
	}
	if ops := l.ops(body); len(ops) > 0 {
		l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(iter.Span()), Cond: l.text(iter), Then: ops, DataCount: true, Divergence: rules.LocalData})
	}
	return filledIn(target, body)
}

// perKey records a per-key collective (log_dict) handed a dict keyed by
// this rank's data.
func (l *lowerer) perKey(c *ast.Call, site *rules.Site) {
	if site == nil || len(c.Args) == 0 || len(l.dataVars) == 0 && len(l.batchVars) == 0 {
		return
	}
	if e := l.tb.Collectives[site.API]; e == nil || !e.PerKey || !l.dataValued(c.Args[0]) {
		return
	}
	ops := l.nodeOps(c)
	if len(ops) == 0 {
		return
	}
	l.addBranch(&rules.RankBranch{Func: l.fn, Guard: l.pos(c.Args[0].Span()), Cond: l.text(c.Args[0]), Then: ops, DataCount: true, Divergence: rules.LocalData})
}

// trackData records whether the local v now holds values from this rank's
// data that dataValued follows (assign).
func (l *lowerer) trackData(v string, value ast.Expr) {
	if value != nil && (len(l.batchVars) > 0 || len(l.dataVars) > 0) && l.dataValued(value) {
		if l.dataVars == nil {
			l.dataVars = map[string]bool{}
		}
		l.dataVars[v] = true
	} else if l.dataVars != nil {
		delete(l.dataVars, v)
	}
}

// markFilled records, after a loop, the locals it filled per element of a
// set (setVars) and of this rank's data (dataVars).
func (l *lowerer) markFilled(perElement, perDatum []string) {
	for _, v := range perElement {
		l.setVars[v] = true
	}
	for _, v := range perDatum {
		if l.dataVars == nil {
			l.dataVars = map[string]bool{}
		}
		l.dataVars[v] = true
	}
}

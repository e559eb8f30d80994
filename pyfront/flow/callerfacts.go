package flow

import (
	"slices"
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
)

// Settings a caller's tests fix. A call made in the then arm of `if
// cfg.ckpt_path == "None":` hands its callee a cfg whose ckpt_path is
// "None": an arm of the callee that asks the opposite (`if cfg.ckpt_path
// != "None" and os.path.exists(cfg.ckpt_path):`, dit_policy_vla's resume)
// does not run at that call, and what it would read from the host's file
// is no answer there.

// settingFact is one comparison of an attribute path with a constant
// that holds: equal or not to the constant (as ast.Dump prints it).
type settingFact struct {
	equal bool
	value string
}

// callerFacts returns, keyed by the callee's parameter path
// ("cfg.ckpt_path"), what the enclosing ifs' tests fix about the
// attributes of the arguments c passes by name.
func (l *lowerer) callerFacts(c *ast.Call, params []string, positional int) map[string]settingFact {
	if len(l.ifTests) == 0 {
		return nil
	}
	held := map[string]settingFact{}
	var conj func(e ast.Expr)
	conj = func(e ast.Expr) {
		if b, ok := e.(*ast.BoolOp); ok && b.Op == ast.And {
			for _, v := range b.Values {
				conj(v)
			}
			return
		}
		if path, f, ok := settingTest(e); ok {
			held[path] = f
		}
	}
	for _, t := range l.ifTests {
		conj(t)
	}
	if len(held) == 0 {
		return nil
	}
	out := map[string]settingFact{}
	for i, p := range params {
		a, ok := paramArgument(c, params, positional, i).(*ast.Name)
		if !ok {
			continue
		}
		for path, f := range held {
			if attr, ok := strings.CutPrefix(path, a.Id+"."); ok && !strings.Contains(attr, ".") {
				out[p+"."+attr] = f
			}
		}
	}
	return out
}

// settingTest reads `x.attr == K` or `x.attr != K` (K a constant) as a
// fact about the path x.attr.
func settingTest(e ast.Expr) (string, settingFact, bool) {
	c, ok := e.(*ast.Compare)
	if !ok || len(c.Ops) != 1 || c.Ops[0] != ast.Eq && c.Ops[0] != ast.NotEq {
		return "", settingFact{}, false
	}
	k, ok := c.Comparators[0].(*ast.Constant)
	a, ok2 := c.Left.(*ast.Attribute)
	if !ok || !ok2 {
		return "", settingFact{}, false
	}
	if _, onName := a.Value.(*ast.Name); !onName {
		return "", settingFact{}, false
	}
	return dotted(a), settingFact{equal: c.Ops[0] == ast.Eq, value: ast.Dump(k, ast.DumpOptions{})}, true
}

// contradicts reports a test that facts make false: a conjunct
// comparing one of their paths against what they fix (`p.x != K` where
// p.x == K holds, `p.x == K2` where it is K, `p.x == K` where p.x != K).
func contradicts(e ast.Expr, facts map[string]settingFact) bool {
	if b, ok := e.(*ast.BoolOp); ok && b.Op == ast.And {
		return slices.ContainsFunc(b.Values, func(v ast.Expr) bool { return contradicts(v, facts) })
	}
	path, f, ok := settingTest(e)
	if !ok {
		return false
	}
	held, known := facts[path]
	if !known {
		return false
	}
	switch {
	case held.equal && f.equal:
		return held.value != f.value
	case held.equal && !f.equal:
		return held.value == f.value
	case !held.equal && f.equal:
		return held.value == f.value
	}
	return false
}

// pruneContradicted returns body without the then arms of its top-level
// ifs whose tests facts make false (their else arms in their place).
func pruneContradicted(body []ast.Stmt, facts map[string]settingFact) ([]ast.Stmt, bool) {
	out := make([]ast.Stmt, 0, len(body))
	changed := false
	for _, st := range body {
		if i, ok := st.(*ast.If); ok && contradicts(i.Test, facts) {
			out = append(out, i.Orelse...)
			changed = true
			continue
		}
		out = append(out, st)
	}
	return out, changed
}

// fsCountCallAt is fsCountCall at this call: where the enclosing ifs fix
// a setting the callee's file check needs the opposite of, the check's
// arm does not run, and the callee hands back no position it read.
func (l *lowerer) fsCountCallAt(value ast.Expr, index int) bool {
	if !l.fsCountCall(value, index) {
		return false
	}
	if len(l.ifTests) == 0 {
		return true
	}
	c := value.(*ast.Call)
	_, fn := l.callee(c)
	body, args, ok := l.defOf(fn)
	if !ok {
		return true
	}
	params, positional := paramsOf(args)
	facts := l.callerFacts(c, params, positional)
	if len(facts) == 0 {
		return true
	}
	pruned, changed := pruneContradicted(body, facts)
	if !changed {
		return true
	}
	return l.fsCountElems(pruned)[index]
}

// paramsOf returns a def's parameters that calls can name, the
// positional ones first, and how many of them are positional
// (paramArgument's params and positional).
func paramsOf(args *ast.Arguments) (params []string, positional int) {
	params = args.PositionalNames()
	positional = len(params)
	for _, k := range args.KwOnlyArgs {
		params = append(params, k.Arg)
	}
	return params, positional
}

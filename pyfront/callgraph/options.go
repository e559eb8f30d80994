package callgraph

import (
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
)

// Options a script always finds true.
//
// `parser.add_argument("--use-ema", action="store_true", default=True)`
// can only ever hold True: store_true sets what the default already is
// (FixMatch-pytorch's flag, copied by its forks). An arm that runs only
// when such an option is false (`if args.use_ema: … else: test_model =
// model`) never runs, and the values it would bind are no values of the
// program: there the DDP model it names would be taken for the one a
// rank-0 evaluation calls.

// armDead says which arm of an if cannot run.
type armDead uint8

const (
	deadNone armDead = iota
	deadThen
	deadElse
)

// deadArm reports the arm of `if <test>:` that cannot run when test
// reads one of flags (args.use_ema) or its negation.
func deadArm(test ast.Expr, flags map[string]bool) armDead {
	if len(flags) == 0 {
		return deadNone
	}
	neg := false
	if u, ok := test.(*ast.UnaryOp); ok && u.Op == ast.Not {
		test, neg = u.Operand, true
	}
	a, ok := test.(*ast.Attribute)
	if !ok || !flags[a.Attr] {
		return deadNone
	}
	if _, isName := a.Value.(*ast.Name); !isName {
		return deadNone
	}
	if neg {
		return deadThen
	}
	return deadElse
}

// alwaysTrueOptions returns the destinations of the module's argparse
// options declared once, with action="store_true" and default=True, that
// nothing else in the module sets (an assignment to the attribute,
// set_defaults) and that no dynamic update could reach (setattr, vars,
// __dict__): the options every run finds true. Never nil.
func alwaysTrueOptions(m *ast.Module) map[string]bool {
	out := map[string]bool{}
	if m == nil {
		return out
	}
	count := map[string]int{}
	constant := map[string]bool{}
	spoiled := map[string]bool{}
	dynamic := false
	ast.Inspect(m, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Attribute:
			if n.Ctx == ast.Store || n.Ctx == ast.Del {
				spoiled[n.Attr] = true
			}
			if n.Attr == "__dict__" {
				dynamic = true
			}
		case *ast.Call:
			switch lastName(n.Func) {
			case "setattr", "vars":
				dynamic = true
			case "set_defaults":
				for _, k := range n.Keywords {
					spoiled[k.Arg] = true
				}
				if len(n.Keywords) == 0 || hasDoubleStar(n) {
					dynamic = true
				}
			case "add_argument":
				dest := optionDest(n)
				if dest == "" {
					return true
				}
				count[dest]++
				constant[dest] = keywordIs(n, "action", "store_true") && keywordTrue(n, "default")
			}
		}
		return true
	})
	if dynamic {
		return out
	}
	for dest, n := range count {
		if n == 1 && constant[dest] && !spoiled[dest] {
			out[dest] = true
		}
	}
	return out
}

// optionDest is the attribute an add_argument call stores to: its dest
// keyword, else its first long option name with dashes as underscores.
func optionDest(c *ast.Call) string {
	for _, k := range c.Keywords {
		if k.Arg == "dest" {
			if s, ok := k.Value.(*ast.Constant); ok && s.Type == ast.ConstStr {
				return s.Str
			}
			return ""
		}
	}
	for _, a := range c.Args {
		s, ok := a.(*ast.Constant)
		if !ok || s.Type != ast.ConstStr {
			return ""
		}
		if strings.HasPrefix(s.Str, "--") && len(s.Str) > 2 {
			return strings.ReplaceAll(s.Str[2:], "-", "_")
		}
	}
	return ""
}

func keywordIs(c *ast.Call, name, value string) bool {
	k := keywordConst(c, name)
	return k != nil && k.Type == ast.ConstStr && k.Str == value
}

func keywordTrue(c *ast.Call, name string) bool {
	k := keywordConst(c, name)
	return k != nil && k.Type == ast.ConstBool && k.Bool
}

// keywordConst is the constant c passes as keyword name, or nil.
func keywordConst(c *ast.Call, name string) *ast.Constant {
	for _, k := range c.Keywords {
		if k.Arg == name {
			v, _ := k.Value.(*ast.Constant)
			return v
		}
	}
	return nil
}

func hasDoubleStar(c *ast.Call) bool {
	for _, k := range c.Keywords {
		if k.Arg == "" {
			return true
		}
	}
	return false
}

package flow

import (
	"strings"

	"github.com/collvet/collvet/pyfront/ast"
)

// Conditions on a random draw.
//
// A draw from a process-wide generator (Python's random module, NumPy's
// global state, torch's default generators) differs between ranks: they
// are seeded apart (seed + rank, for data diversity), or seeded alike and
// then consumed differently (data-dependent code draws a different number
// of times on each rank). LayerDrop, which skips a layer when a draw
// falls under its rate, hung FSDP training this way (fairscale#796,
// fairseq#3875): the rank that skipped a layer skipped its parameters'
// all-gather. A generator object the program makes for itself
// (random.Random(seed), np.random.default_rng(seed), torch.Generator) is
// left out: it is usually seeded for the decision it makes.

// randomCalls draw from a process-wide generator.
var randomCalls = map[string]bool{
	"random.random": true, "random.uniform": true, "random.randint": true, "random.randrange": true,
	"random.choice": true, "random.choices": true, "random.sample": true, "random.gauss": true,
	"random.getrandbits": true, "random.betavariate": true, "random.expovariate": true, "random.triangular": true,
	"numpy.random.rand": true, "numpy.random.random": true, "numpy.random.random_sample": true,
	"numpy.random.uniform": true, "numpy.random.randint": true, "numpy.random.choice": true,
	"numpy.random.randn": true, "numpy.random.normal": true, "numpy.random.binomial": true,
	"numpy.random.permutation": true, "torch.rand": true, "torch.randint": true, "torch.randn": true,
	"torch.randperm": true, "torch.bernoulli": true, "torch.multinomial": true, "torch.normal": true,
}

// randomFills fill a tensor in place from torch's default generator
// (`torch.empty(n).uniform_()`, fairseq's LayerDrop).
var randomFills = map[string]bool{"uniform_": true, "bernoulli_": true, "normal_": true, "random_": true, "exponential_": true}

// randomDraw reports whether e depends on a draw from a process-wide
// generator, directly or through a local holding one. A value broadcast
// or all-reduced afterwards is the same on every rank and does not count.
func (l *lowerer) randomDraw(e ast.Expr) bool {
	return dependsOn(e, l.randVars, func(n ast.Node) (bool, bool) {
		c, ok := n.(*ast.Call)
		if !ok {
			return false, true
		}
		if l.uniformCall(c) {
			return false, false
		}
		for _, k := range c.Keywords {
			if k.Arg == "generator" {
				return false, true // a generator of the program's own
			}
		}
		ext, fn := l.callee(c)
		if fn != nil {
			return false, true
		}
		if randomCalls[ext] || ext == "" && randomCalls[dotted(c.Func)] {
			return true, false
		}
		if a, ok := c.Func.(*ast.Attribute); ok && randomFills[a.Attr] && (ext == "" || strings.HasPrefix(ext, "torch.")) {
			return true, false
		}
		return false, true
	})
}

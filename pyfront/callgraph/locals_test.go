package callgraph_test

import (
	"slices"
	"testing"
)

// A local variable assigned more than once holds, at each read, only the
// values of the assignments that can reach that read (locals.go). Each
// sink function below receives one read; which classes' run methods it
// calls tells which values reached it.
func TestFlowSensitiveLocals(t *testing.T) {
	src := `import contextlib


class A:
    def run(self):
        pass


class B:
    def run(self):
        pass


def sink_seq_a(o): o.run()
def sink_seq_b(o): o.run()
def sink_loop(o): o.run()
def sink_branch(o): o.run()
def sink_handler(o): o.run()
def sink_wrapped(o): o.run()
def sink_closure(o): o.run()
def sink_param(o): o.run()
def sink_param_after(o): o.run()
def sink_comp(o): o.run()
def sink_genexp(o): o.run()
def sink_with(o): o.run()
def sink_after_return(o): o.run()
def sink_first_loop(o): o.run()
def sink_second_loop(o): o.run()
def sink_global(o): o.run()
def sink_while(o): o.run()
def sink_finally(o): o.run()


_FIRST = None


def sequence():
    x = A()
    sink_seq_a(x)
    x = B()
    sink_seq_b(x)


def loop(n):
    x = A()
    for _ in range(n):
        sink_loop(x)
        x = B()


def while_continue(n):
    x = A()
    while n:
        n -= 1
        if n % 2:
            x = B()
            continue
        x = A()
    sink_while(x)


def branch(c):
    if c:
        x = A()
    else:
        x = B()
    sink_branch(x)


def handler(f):
    x = A()
    try:
        x = B()
        f()
    except Exception:
        sink_handler(x)


def finally_clause(f):
    x = A()
    try:
        f()
        x = B()
    finally:
        sink_finally(x)


def wrapped(wrap):
    x = A()
    x = wrap(x)
    sink_wrapped(x)


def closure():
    x = A()

    def inner():
        sink_closure(x)

    x = B()
    inner()


def param(x):
    sink_param(x)
    x = B()
    sink_param_after(x)


def comp(n):
    x = A()
    ys = [sink_comp(x) for _ in range(n)]
    x = B()
    return ys


def genexp(n):
    x = A()
    g = (sink_genexp(x) for _ in range(n))
    x = B()
    return list(g)


def with_body():
    x = A()
    with contextlib.suppress(ValueError):
        x = B()
    sink_with(x)


def after_return(c):
    x = A()
    if c:
        x = B()
        return
    sink_after_return(x)


def two_loops(n):
    global _FIRST
    for i in range(n):
        g = A()
        if i == 0:
            _FIRST = g
            sink_first_loop(g)
    for i in range(n):
        g = B()
        sink_second_loop(g)


def read_global():
    sink_global(_FIRST)


def main():
    param(A())
`
	g := streamed(t, map[string]string{"m": src}, []string{"m"}, nil)
	both := []string{"m.A.run", "m.B.run"}
	want := map[string][]string{
		"sink_seq_a":        {"m.A.run"},
		"sink_seq_b":        {"m.B.run"},
		"sink_loop":         both,
		"sink_while":        both,
		"sink_branch":       both,
		"sink_handler":      both,
		"sink_finally":      both,
		"sink_wrapped":      {"m.A.run"}, // and whatever wrap returns
		"sink_closure":      both,
		"sink_param":        {"m.A.run"},
		"sink_param_after":  {"m.B.run"},
		"sink_comp":         {"m.A.run"},
		"sink_genexp":       both,
		"sink_with":         both,
		"sink_after_return": {"m.A.run"},
		"sink_first_loop":   {"m.A.run"},
		"sink_second_loop":  {"m.B.run"},
		"sink_global":       {"m.A.run"},
	}
	for sink, runs := range want {
		var got []string
		for _, c := range g["m."+sink] {
			if c == "m.A.run" || c == "m.B.run" {
				got = append(got, c)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, runs) {
			t.Errorf("%s calls %v, want %v", sink, got, runs)
		}
	}
}

package flow

import (
	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// Stream effects of the program's own context managers.
//
// Frameworks wrap their stream handling in @contextmanager functions:
// fairscale's use_stream(s) enters torch.cuda.stream(s) around its yield,
// Megatron's stream_acquire_context(s, e) makes s wait for e before the
// yield and records e on s after it. A `with` of such a function has those
// effects where the with statement is: the waits before the yield on
// entry, the stream context around the yield for the body, the records
// after the yield on exit. Only what the context manager does to its own
// parameters is carried over (a stream or event it makes itself is
// invisible to the caller anyway).

// cmEffects is what a context manager does to its parameters' streams
// and events.
type cmEffects struct {
	params      []string
	enter, exit []cmEffect
	stream      int // the parameter whose stream the body runs on; -1: none
}

// cmEffect is one stream call of the context manager: recv and arg are
// the indexes of the parameters that are its receiver and its stream
// argument (-1: not a parameter).
type cmEffect struct {
	role      string // wait_event, record_event or wait_stream
	recv, arg int
}

// cmEffectsOf summarises fn when it is a @contextmanager function of the
// program with stream effects on its parameters; nil otherwise.
func (l *lowerer) cmEffectsOf(fn *rules.Function) *cmEffects {
	fd, ok := l.r.(FuncDefiner)
	if !ok || fn == nil {
		return nil
	}
	body, args, decos, ok := defParts(fd.FuncDef(fn))
	if !ok || args == nil || !contextManagerDecorated(decos) {
		return nil
	}
	e := &cmEffects{stream: -1}
	e.params = args.PositionalNames()
	after := false
	e.scan(l, body, &after)
	if !after || len(e.enter) == 0 && len(e.exit) == 0 && e.stream < 0 {
		return nil
	}
	return e
}

// contextManagerDecorated: @contextmanager or @contextlib.contextmanager
// (or the async variants).
func contextManagerDecorated(decos []ast.Expr) bool {
	for _, d := range decos {
		switch lastDotted(d) {
		case "contextmanager", "asynccontextmanager":
			return true
		}
	}
	return false
}

// scan walks the statements on the context manager's main path, sorting
// its stream calls into those before the yield and those after it.
// *after is set once the yield is passed. An early exit (if not stream:
// yield; return) is not the main path and is skipped.
func (e *cmEffects) scan(l *lowerer, stmts []ast.Stmt, after *bool) {
	for _, s := range stmts {
		switch s := s.(type) {
		case *ast.ExprStmt:
			if isYield(s.Value) {
				*after = true
				continue
			}
			if c, ok := s.Value.(*ast.Call); ok {
				e.effect(l, c, *after)
			}
		case *ast.With:
			if !*after && containsYield(s.Body) {
				for _, it := range s.Items {
					if c, ok := it.ContextExpr.(*ast.Call); ok && e.stream < 0 {
						ext, _ := l.callee(c)
						if sa := l.tb.Streams[ext]; sa != nil && sa.Role == "stream_context" {
							e.stream = e.param(arg(c, sa.Arg))
						}
					}
				}
			}
			e.scan(l, s.Body, after)
		case *ast.Try:
			e.scan(l, s.Body, after)
			if *after {
				e.scan(l, s.Finalbody, after)
			}
		case *ast.If:
			if containsYield(s.Body) && endsInReturn(s.Body) {
				continue // an early exit past its own yield
			}
		}
	}
}

// effect records c if it is a stream call on the context manager's
// parameters. Receivers are parameters of unknown type, so besides the
// tables' methods, Event.wait(stream) and Event.record(stream) are
// recognised by name when both sides are parameters.
func (e *cmEffects) effect(l *lowerer, c *ast.Call, after bool) {
	a, ok := c.Func.(*ast.Attribute)
	if !ok {
		return
	}
	recv := e.param(a.Value)
	if recv < 0 {
		return
	}
	var role string
	ext, _ := l.callee(c)
	if sa := l.tb.Streams[ext]; sa != nil {
		role = sa.Role
	}
	if role != "wait_event" && role != "record_event" && role != "wait_stream" {
		// event.wait(stream) on a parameter of unknown type may resolve
		// to Work.wait by name; the stream argument says otherwise.
		switch a.Attr {
		case "wait", "wait_event":
			role = "wait_event"
		case "record", "record_event":
			role = "record_event"
		case "wait_stream":
			role = "wait_stream"
		}
	}
	if role != "wait_event" && role != "record_event" && role != "wait_stream" || len(c.Args) != 1 {
		return
	}
	x := cmEffect{role: role, recv: recv, arg: e.param(c.Args[0])}
	if x.arg < 0 {
		return
	}
	if after {
		e.exit = append(e.exit, x)
	} else {
		e.enter = append(e.enter, x)
	}
}

// param returns the index of the parameter x names, directly or as the
// only argument of a conversion (as_cuda(stream)); -1 otherwise.
func (e *cmEffects) param(x ast.Expr) int {
	if c, ok := x.(*ast.Call); ok && len(c.Args) == 1 && len(c.Keywords) == 0 {
		x = c.Args[0]
	}
	if n, ok := x.(*ast.Name); ok {
		for i, p := range e.params {
			if p == n.Id {
				return i
			}
		}
	}
	return -1
}

// argument is the expression call c passes for parameter i of the
// context manager (a method called through its instance skips self).
func (e *cmEffects) argument(c *ast.Call, i int) ast.Expr {
	return paramArgument(c, e.params, len(e.params), i)
}

// paramArgument is the expression call c passes for parameter i of a
// function of the program whose parameters are params, the first
// positional of them positional-or-only: by name, or by position, where a
// method called through its instance (x.f(…)) does not pass self.
func paramArgument(c *ast.Call, params []string, positional, i int) ast.Expr {
	if i < 0 || i >= len(params) {
		return nil
	}
	pos := i
	if pos >= positional {
		pos = -1 // keyword-only
	} else if _, bound := c.Func.(*ast.Attribute); bound && (params[0] == "self" || params[0] == "cls") {
		pos--
	}
	return arg(c, api.Arg{Pos: pos, Name: params[i]})
}

// applyCM emits the events of a context manager's effects at the with
// statement's call c.
func (l *lowerer) applyCM(c *ast.Call, e *cmEffects, list []cmEffect, at rules.Pos) {
	for _, x := range list {
		recv, a := e.argument(c, x.recv), e.argument(c, x.arg)
		if recv == nil || a == nil {
			continue
		}
		switch x.role {
		case "wait_event": // event.wait(stream): the stream waits for the event
			w, o := l.streamOf(a), l.eventOn[dotted(recv)]
			l.event(&rules.Event{Kind: rules.EvWaitEvent, Pos: at, Stream: w.s, StreamText: w.text, Other: o.s, OtherText: o.text})
		case "record_event": // event.record(stream)
			on := l.streamOf(a)
			l.eventOn[dotted(recv)] = on
			l.event(&rules.Event{Kind: rules.EvRecordEvent, Pos: at, Stream: on.s, StreamText: on.text})
		case "wait_stream":
			w, o := l.streamOf(recv), l.streamOf(a)
			l.event(&rules.Event{Kind: rules.EvWaitStream, Pos: at, Stream: w.s, StreamText: w.text, Other: o.s, OtherText: o.text})
		}
	}
}

func isYield(x ast.Expr) bool {
	switch x.(type) {
	case *ast.Yield, *ast.YieldFrom:
		return true
	}
	return false
}

// containsYield reports whether a yield statement is among stmts or
// nested in their blocks (not in nested functions).
func containsYield(stmts []ast.Stmt) bool {
	return anyStmt(stmts, func(s ast.Stmt) bool {
		e, ok := s.(*ast.ExprStmt)
		return ok && isYield(e.Value)
	})
}

func endsInReturn(stmts []ast.Stmt) bool {
	if len(stmts) == 0 {
		return false
	}
	_, ok := stmts[len(stmts)-1].(*ast.Return)
	return ok
}

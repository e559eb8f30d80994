package collvet

import (
	"fmt"
	"strings"

	"github.com/collvet/collvet/rules"
)

// Extra runs the Go-specific checks that report under the shared rules'
// codes but need facts only the Go front end has:
//
//   - CV104: MPI initialised with MPI_THREAD_FUNNELED while the main
//     goroutine is not locked to its OS thread (package main has no
//     runtime.LockOSThread in init or at the start of main): the scheduler
//     moves the main goroutine, so later MPI calls come from another thread.
//   - CV401 for Go MPI requests, only while no CV401 rule is registered.
//
// Drivers that run rules.All over a Go model (the CLI) call it too.
func Extra(prog *rules.Program) []rules.Diagnostic { return extra(prog) }

func extra(prog *rules.Program) []rules.Diagnostic {
	var out []rules.Diagnostic
	out = append(out, funneled(prog)...)
	if rules.Lookup("CV401") == nil {
		out = append(out, unwaited(prog)...)
	}
	return out
}

func lookup(code, name string, sev rules.Severity) (string, rules.Severity) {
	if r := rules.Lookup(code); r != nil {
		return r.Name, r.Severity
	}
	return name, sev
}

func funneled(prog *rules.Program) []rules.Diagnostic {
	f := &prog.Facts
	if !strings.EqualFold(f.MPIThreadLevel, "funneled") || !f.MPIThreadLevelPos.IsValid() {
		return nil
	}
	file := prog.File(f.MPIThreadLevelPos.Path)
	if file == nil || file.Lang != rules.Go {
		return nil
	}
	var out []rules.Diagnostic
	for _, c := range prog.Contexts {
		if c.Kind != rules.Main || c.Entry == nil || c.Entry.Lang != rules.Go || c.LockedOSThread {
			continue
		}
		name, sev := lookup("CV104", "mpi-thread-level", rules.Error)
		out = append(out, rules.Diagnostic{
			Rule: "CV104", Name: name, Severity: sev, Pos: f.MPIThreadLevelPos,
			Message: "MPI is initialised with MPI_THREAD_FUNNELED, which allows MPI calls only from the thread that initialised it, " +
				"but the main goroutine is not locked to its OS thread: the Go scheduler can move it, and its later MPI calls then come from another thread; " +
				"lock it in package main (func init() { runtime.LockOSThread() })",
			Related: []rules.Related{{Pos: c.Entry.Pos, Message: "the main goroutine starts here, unlocked"}},
		})
	}
	return out
}

func unwaited(prog *rules.Program) []rules.Diagnostic {
	var out []rules.Diagnostic
	for _, w := range prog.Works {
		s := w.Site
		if s == nil || s.Func == nil || s.Func.Lang != rules.Go || w.Escapes || w.Discarded || len(w.Waited) > 0 {
			continue
		}
		name, sev := lookup("CV401", "unwaited-async-work", rules.Warning)
		api := s.API[strings.LastIndexByte(s.API, '.')+1:]
		out = append(out, rules.Diagnostic{
			Rule: "CV401", Name: name, Severity: sev, Pos: s.Pos,
			Message: fmt.Sprintf("the request %s of %s is never waited (MPI_Wait/MPI_Test): the buffer may be reused "+
				"before the transfer completes and the request leaks", w.Var, api),
		})
	}
	return out
}

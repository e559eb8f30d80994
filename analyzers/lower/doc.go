// Package lower defines the builder analyzer of collvet's Go front end: it
// lowers one Go package into collvet's language-neutral model
// (rules.Program), the same model the Python front end produces, so the
// rules never look at Go syntax.
//
// # What it recognises
//
// Calls are looked up by Go qualified name in the API tables (rules/api,
// data files go_*.toml): cgo calls as "C.ncclAllReduce" (the cgo-processed
// call _Cfunc_ncclAllReduce), functions as "importpath.Func", methods as
// "importpath.Type.Method". The tables say which calls communicate (and
// where their communicator, stream and request arguments are), which create
// communicators, which wait on requests, which request an MPI thread level
// and which run a function on another goroutine (errgroup, sync.WaitGroup.Go,
// conc). `go` statements are spawns too.
//
// # Lowering
//
//   - Every function declaration and function literal becomes a Function.
//     A literal that is not spawned runs on its creator's goroutine
//     (deferred closures, callbacks): it is walked as part of its parent.
//   - Contexts: the main goroutine (entry main and init in package main;
//     in a library, the caller of its exported functions) and one goroutine
//     context per spawn, with its multiplicity (spawned in a loop, or by a
//     spawner that runs several goroutines), whether the spawner joins it
//     right away (wg.Wait() / g.Wait() / a receive as the next statement),
//     and whether it locks its OS thread (runtime.LockOSThread before its
//     first communication).
//   - Communicators and streams are abstract values: an allocation site
//     (ncclCommInitRank@main.go:12, the out-parameter or result of a table
//     creator), the world communicator, a variable or struct field
//     identity, or unknown. Parameters are bound to the caller's arguments
//     along each context's call chains, so `go worker(intra)` and
//     `go worker(inter)` reach two sites on two communicators.
//   - Cross-package summaries travel as facts (Summary): which operations a
//     function issues on which of its operands (receiver first), which
//     goroutines it starts, whether it locks its thread, which MPI thread
//     level it requests. A call of a summarised function becomes a wrapper
//     Site at the call, so findings land in the calling package.
//
// The analyzer reports nothing; package analyzers/collvet runs the rules
// over its Result.
package lower

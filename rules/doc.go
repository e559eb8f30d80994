// Package rules holds collvet's language-neutral model of a distributed
// program and the rule framework that reads it.
//
// Front ends (pyfront for Python, analyzers for Go) lower source code into a
// Program; rules never look at syntax, only at the model. The model answers,
// for every collective call: which function it is in, which chains of calls
// reach it, on which host thread (Context) each chain runs, and which process
// group, stream and work handle it uses.
//
// # The model
//
//	Program     everything analysed: files, functions, contexts, sites, …
//	Function    a call-graph node (Python function/method/lambda/module body;
//	            Go function), with its outgoing Calls and, in program order,
//	            the Events the flow rules read (collectives, waits, stream
//	            switches, tensor uses)
//	Call        a resolved call edge: to a Function, or to an external API
//	            symbol by fully qualified name (torch.distributed.all_reduce)
//	Context     where code runs: main, thread, pool, autograd, background,
//	            signal (a signal handler, on the main thread wherever the
//	            signal finds it), goroutine; its spawn or hook-registration
//	            site, multiplicity,
//	            and ordering facts (joined right away; autograd
//	            multithreading disabled)
//	Site        a call that communicates: op, kind, group, stream, async flag,
//	            work handle, and the contexts (with one call chain each) that
//	            reach it
//	Group       an abstract process group / communicator: WORLD, an
//	            allocation site (new_group@file:line), a mesh dimension, or
//	            unknown; with its backend when known
//	Stream      an abstract CUDA stream (a side stream's creation site, or
//	            the current/default stream)
//	Work        an async work handle / request and where it is waited
//	RankBranch  a rank-dependent condition and the collective sequences on
//	            each of its paths
//
// # Positions
//
// Pos lines and columns are 1-based; columns count UTF-8 bytes (as go vet
// and CPython's col_offset+1 do). Output formats that need UTF-16 (SARIF,
// LSP) convert with the file's source.
//
// # Rules
//
// A Rule is a small value with a code (CV101), a name, a default severity,
// single-sourced documentation (Doc) and a Run function that reads a Pass's
// Program and reports Diagnostics. Rules register themselves with Register;
// package rules/all imports every rule.
package rules

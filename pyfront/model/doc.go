// Package model lowers an analysed Python program (pyfront/callgraph)
// into collvet's language-neutral model (rules.Program): functions and
// call edges, collective sites with their group, stream, async flag and
// work handle, the thread contexts that run code (main, threads, pools,
// autograd callbacks, library background threads, signal handlers) with their spawn
// sites, multiplicity and ordering facts, one witnessing call chain per
// (context, site) pair (Reach, with the group that chain passes), and the
// program-wide facts (init_process_group statements, autograd
// multithreading switches, the torch requirement, the MPI thread level).
//
// Every API decision ("is this call a collective / a spawner / a group
// creator / a stream API") goes through the api.Tables, by canonical
// qualified name. A receiver the call graph gave no value is typed, in
// this order, by the annotation of the parameter it is (accelerator:
// Accelerator, Optional[ProcessGroup]) or of the self attribute it is
// (a class-body X: T, self.X: T = …, self.X = param: T); failing that,
// method entries marked any_receiver match by name, among the libraries
// the program imports (or all of them for a receiver with no value at
// all in a program importing none). The call graph itself, and so the
// PyCG export, ignores annotations.
//
// After the model is complete, the flow pass (pyfront/flow) runs once per
// function with this package's Resolver.
package model

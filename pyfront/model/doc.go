// Package model lowers an analysed Python program (pyfront/callgraph)
// into collvet's language-neutral model (rules.Program): functions and
// call edges, collective sites with their group, stream, async flag and
// work handle, the thread contexts that run code (main, threads, pools,
// autograd callbacks, library background threads) with their spawn
// sites, multiplicity and ordering facts, one witnessing call chain per
// (context, site) pair (Reach, with the group that chain passes), and the
// program-wide facts (init_process_group statements, autograd
// multithreading switches, the torch requirement, the MPI thread level).
//
// Every API decision ("is this call a collective / a spawner / a group
// creator / a stream API") goes through the api.Tables, by canonical
// qualified name; method entries marked any_receiver also match calls on
// receivers the analysis cannot type.
//
// After the model is complete, the flow pass (pyfront/flow) runs once per
// function with this package's Resolver.
package model

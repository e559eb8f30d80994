// Package pyfront is collvet's Python front end: it finds the Python
// files under the given paths, parses them (in parallel), resolves
// modules, imports and names, builds the call graph and value facts, and
// lowers everything into the language-neutral rules.Program.
//
// Load is the entry point used by the CLI and the LSP server:
//
//	res, err := pyfront.Load([]string{"train.py", "pkg/"}, pyfront.Options{})
//	// err: only for unusable input (a path that does not exist)
//	// res.Program: the model the rules read; res.Errors: per-file problems
//
// The pipeline: resolve.Discover (files) → resolve.Namer (module names) →
// parser.Parse + resolve.BuildScopes per file (cached by content hash in
// a Cache) → callgraph.Build (whole-program points-to and call graph) →
// model.Build (functions, contexts, sites, groups, streams, reach chains,
// facts; the flow pass per function).
package pyfront

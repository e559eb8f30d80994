// Package resolve finds a Python program's files and modules and binds
// its names: file discovery under the given paths (skipping VCS folders,
// virtual environments, build outputs), module names the way Python's
// import system finds them (packages with __init__.py, namespace
// packages, src/ layouts, scripts), relative import resolution, and the
// scopes of every module (module, class, function, lambda and
// comprehension scopes; global and nonlocal declarations), so that each
// name use maps to the scope that defines it.
//
// Everything here is computed from one module at a time (plus the module
// table), so it can be cached per file content.
package resolve

import "os"

var osStat = os.Stat

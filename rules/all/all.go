// Package all imports every collvet rule for its registration side effect.
// Drivers import it once:
//
//	import _ "github.com/collvet/collvet/rules/all"
//
// and then use rules.All().
package all

import (
	// The Python and language-neutral rules.
	_ "github.com/collvet/collvet/rules/cv101"
	_ "github.com/collvet/collvet/rules/cv102"
	_ "github.com/collvet/collvet/rules/cv103"
	_ "github.com/collvet/collvet/rules/cv104"
	// Go only: goroutines without a locked OS thread.
	_ "github.com/collvet/collvet/rules/cv105"
	_ "github.com/collvet/collvet/rules/cv201"
	_ "github.com/collvet/collvet/rules/cv202"
	_ "github.com/collvet/collvet/rules/cv203"
	_ "github.com/collvet/collvet/rules/cv301"
	_ "github.com/collvet/collvet/rules/cv302"
	_ "github.com/collvet/collvet/rules/cv303"
	_ "github.com/collvet/collvet/rules/cv304"
	_ "github.com/collvet/collvet/rules/cv401"
	_ "github.com/collvet/collvet/rules/cv402"
	_ "github.com/collvet/collvet/rules/cv403"
)

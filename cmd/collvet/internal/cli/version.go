package cli

import (
	"fmt"
	"runtime/debug"
)

// Version is collvet's version; release builds set it with -ldflags "-X".
var Version = "0.1.0-dev"

func init() {
	Register(&Command{Name: "version", Short: "print collvet's version", Run: func(env *Env, args []string) int {
		goVersion := ""
		if bi, ok := debug.ReadBuildInfo(); ok {
			goVersion = bi.GoVersion
		}
		fmt.Fprintf(env.Stdout, "collvet %s (%s)\n", Version, goVersion)
		return ExitOK
	}})
}

package cli

import (
	"flag"
	"fmt"

	"github.com/collvet/collvet/cmd/collvet/internal/guard"
)

// The guard command hands out the runtime guard, collvet_guard.py: with
// --write DIR it writes the module into DIR, without it prints the module.
func init() {
	Register(&Command{
		Name:  "guard",
		Usage: "[--write DIR]",
		Short: "write the runtime guard collvet_guard.py (wraps torch.distributed at run time)",
		Run:   runGuard,
	})
}

func runGuard(env *Env, args []string) int {
	fs := flag.NewFlagSet("guard", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	dir := fs.String("write", "", "write "+guard.FileName+" into this directory")
	fs.Usage = func() {
		fmt.Fprintf(env.Stderr, "usage: collvet guard [--write DIR]\n\n"+
			"Prints the runtime guard module, or writes it into DIR. In the training script:\n\n"+
			"    import collvet_guard\n"+
			"    collvet_guard.install(mode=\"warn\")  # or \"raise\", \"serialize\"\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return ExitOK
		}
		return ExitError
	}
	if fs.NArg() > 0 {
		return env.Errorf("guard: unexpected argument %q", fs.Arg(0))
	}
	if *dir == "" {
		if _, err := env.Stdout.Write(guard.Source()); err != nil {
			return env.Errorf("guard: %v", err)
		}
		return ExitOK
	}
	path, err := guard.Write(*dir)
	if err != nil {
		return env.Errorf("guard: %v", err)
	}
	fmt.Fprintf(env.Stdout, "wrote %s\n", path)
	return ExitOK
}

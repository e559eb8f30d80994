// Package cli implements collvet's command line: a small registry of
// subcommands (check, explain, rules, lsp, guard, debug …), each in a file of
// its own, and the dispatch between them. The analysis itself lives in other
// packages; commands parse flags, call into them and map results to exit
// codes (0 clean, 1 findings, 2 usage or internal error).
package cli

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Exit codes shared by every command, as go vet and ruff use them.
const (
	ExitOK       = 0 // no findings
	ExitFindings = 1 // findings (or a non-empty --diff)
	ExitError    = 2 // usage or internal error
)

// Env is what a command runs with: its standard streams.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// Errorf prints "collvet: msg" on stderr and returns ExitError.
func (e *Env) Errorf(format string, args ...any) int {
	fmt.Fprintf(e.Stderr, "collvet: "+format+"\n", args...)
	return ExitError
}

// Command is one subcommand. Name may contain a space for nested commands
// ("debug ast").
type Command struct {
	Name  string
	Usage string // one line: arguments after the name
	Short string // one line: what it does
	Run   func(env *Env, args []string) int
}

var commands = map[string]*Command{}

// Register adds a command; called from init functions of the command files.
func Register(c *Command) {
	if _, dup := commands[c.Name]; dup {
		panic("cli: duplicate command " + c.Name)
	}
	commands[c.Name] = c
}

// DefaultCommand runs when the first argument names no command: the check.
var DefaultCommand = "check"

// Main dispatches args (without the program name) and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	env := &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr}
	if len(args) > 0 && (args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
		usage(env.Stdout)
		return ExitOK
	}
	// Longest match first: "debug ast" before "debug".
	if len(args) >= 2 {
		if c, ok := commands[args[0]+" "+args[1]]; ok {
			return c.Run(env, args[2:])
		}
	}
	if len(args) >= 1 {
		if c, ok := commands[args[0]]; ok {
			return c.Run(env, args[1:])
		}
		if args[0] == "debug" {
			fmt.Fprintln(env.Stderr, "collvet: debug needs a subcommand")
			usage(env.Stderr)
			return ExitError
		}
	}
	if c, ok := commands[DefaultCommand]; ok {
		return c.Run(env, args)
	}
	usage(env.Stderr)
	return ExitError
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "collvet: static checks for collective communication in distributed training code\n\nUsage:\n  collvet [flags] [paths | Go package patterns]\n  collvet <command> [arguments]\n\nCommands:\n")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := commands[n]
		fmt.Fprintf(w, "  %-*s %s\n", 18, strings.TrimSpace(n), c.Short)
	}
}

// ProgramName is used in messages.
var ProgramName = func() string {
	if len(os.Args) > 0 {
		return os.Args[0]
	}
	return "collvet"
}()

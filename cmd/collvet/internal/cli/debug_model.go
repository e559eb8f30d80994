package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/collvet/collvet/cmd/collvet/internal/driver"
	"github.com/collvet/collvet/pyfront"
	"github.com/collvet/collvet/rules"
)

func init() {
	Register(&Command{
		Name:  "debug callgraph",
		Usage: "[--format=pycg] ROOT...",
		Short: "print the Python call graph (PyCG's JSON shape)",
		Run:   runDebugCallgraph,
	})
	Register(&Command{
		Name:  "debug contexts",
		Usage: "[--format=text|json] [paths | Go package patterns]",
		Short: "print each collective site (Python and Go) with its contexts, call chains, group, stream and async flag",
		Run:   runDebugContexts,
	})
}

// splitFlags moves flags after the paths in front of them, so that
// "debug contexts x.py --format=json" works like go vet's flags.
func splitFlags(args []string) []string {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		if args[i] == "--" {
			rest = append(rest, args[i+1:]...)
			break
		}
		if strings.HasPrefix(args[i], "-") && len(args[i]) > 1 {
			flags = append(flags, args[i])
			if name := strings.TrimLeft(args[i], "-"); !strings.Contains(args[i], "=") && i+1 < len(args) && (name == "format" || name == "tags") {
				flags = append(flags, args[i+1])
				i++
			}
			continue
		}
		rest = append(rest, args[i])
	}
	return append(append(flags, "--"), rest...)
}

func runDebugCallgraph(env *Env, args []string) int {
	fset := flag.NewFlagSet("debug callgraph", flag.ContinueOnError)
	fset.SetOutput(env.Stderr)
	format := fset.String("format", "pycg", "output format: pycg")
	if err := fset.Parse(splitFlags(args)); err != nil {
		return ExitError
	}
	if *format != "pycg" {
		return env.Errorf("debug callgraph: unknown format %q (want pycg)", *format)
	}
	paths := fset.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}
	res, err := pyfront.Load(paths, pyfront.Options{PyCGSelf: true, Pretouch: true})
	if err != nil {
		return env.Errorf("%v", err)
	}
	for _, e := range res.Errors {
		fmt.Fprintf(env.Stderr, "%s\n", e.Error())
	}
	_, _ = env.Stdout.Write(res.Graph.PyCGJSON())
	return ExitOK
}

// ContextsJSON is the JSON shape of "debug contexts --format=json".
type ContextsJSON struct {
	Sites []SiteJSON `json:"sites"`
}

// SiteJSON is one collective site.
type SiteJSON struct {
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	API    string `json:"api"`
	Op     string `json:"op"`
	Group  string `json:"group"`
	// Groups lists every group the site may use when the analysis found
	// several (Group is the first of them).
	Groups   []string      `json:"groups,omitempty"`
	Backend  string        `json:"backend"`
	Stream   string        `json:"stream"`
	Async    bool          `json:"async"`
	Contexts []ContextJSON `json:"contexts"`
}

// ContextJSON is one context reaching a site, with one call chain.
type ContextJSON struct {
	Kind  string   `json:"kind"`
	Spawn string   `json:"spawn"`
	Many  bool     `json:"many"`
	Chain []string `json:"chain"`
	// Group is set when this chain passes a different group than the
	// site's (a group handed down through parameters).
	Group string `json:"group,omitempty"`
}

// contextsOf renders a program's sites for debug contexts.
func contextsOf(p *rules.Program) ContextsJSON {
	out := ContextsJSON{Sites: []SiteJSON{}}
	for _, s := range p.Sites {
		sj := SiteJSON{Path: s.Pos.Path, Line: s.Pos.Line, Column: s.Pos.Col, API: s.API, Op: s.Op,
			Group: "unknown", Stream: "current", Async: s.Async, Contexts: []ContextJSON{}}
		if s.Group != nil {
			sj.Group, sj.Backend = s.Group.ID, s.Group.Backend
		}
		for _, g := range s.Groups {
			if g != nil {
				sj.Groups = append(sj.Groups, g.ID)
			}
		}
		if len(sj.Groups) < 2 {
			sj.Groups = nil
		}
		if s.Stream != nil {
			sj.Stream = s.Stream.ID
		}
		for _, r := range s.Reach {
			cj := ContextJSON{Kind: string(r.Ctx.Kind), Many: r.Ctx.Many, Chain: []string{}}
			if r.Ctx.Spawn.IsValid() {
				cj.Spawn = r.Ctx.Spawn.Short()
			}
			// The main context of several Go binaries is one context with
			// the first binary's main as its entry: name where this chain
			// starts instead.
			if r.Ctx.Entry != nil && r.Ctx.Kind != rules.Main {
				cj.Chain = append(cj.Chain, r.Ctx.Entry.Name)
			} else if len(r.Chain) > 0 {
				cj.Chain = append(cj.Chain, r.Chain[0].Caller.Name)
			} else {
				cj.Chain = append(cj.Chain, s.Func.Name)
			}
			for _, c := range r.Chain {
				if c.Callee != nil {
					cj.Chain = append(cj.Chain, c.Callee.Name)
				}
			}
			if r.Group != nil {
				cj.Group = r.Group.ID
			}
			sj.Contexts = append(sj.Contexts, cj)
		}
		out.Sites = append(out.Sites, sj)
	}
	return out
}

func runDebugContexts(env *Env, args []string) int {
	fset := flag.NewFlagSet("debug contexts", flag.ContinueOnError)
	fset.SetOutput(env.Stderr)
	format := fset.String("format", "text", "output format: text or json")
	var tags []string
	fset.Func("tags", "Go build tags, comma-separated, as check takes them", func(v string) error {
		for _, t := range strings.Split(v, ",") {
			if t = strings.TrimSpace(t); t != "" {
				tags = append(tags, t)
			}
		}
		return nil
	})
	tests := fset.Bool("tests", false, "also read the Go packages' _test.go files, as check does")
	if err := fset.Parse(splitFlags(args)); err != nil {
		return ExitError
	}
	paths := fset.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}
	// Through the driver, like check: Python paths and Go packages
	// (./..., a directory holding go.mod) alike, with the configuration's
	// excludes and check's Go build flags.
	rep, err := driver.Analyze(context.Background(), driver.Request{Paths: paths, Pretouch: true, GoTags: tags, GoTests: *tests})
	if err != nil {
		return env.Errorf("%v", err)
	}
	for _, e := range rep.Errors {
		fmt.Fprintf(env.Stderr, "%s\n", e.Error())
	}
	data := contextsOf(rep.Program)
	switch *format {
	case "json":
		enc := json.NewEncoder(env.Stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(data); err != nil {
			return env.Errorf("%v", err)
		}
	case "text":
		writeContextsText(env.Stdout, data)
	default:
		return env.Errorf("debug contexts: unknown format %q (want text or json)", *format)
	}
	return ExitOK
}

func writeContextsText(w io.Writer, data ContextsJSON) {
	for _, s := range data.Sites {
		async := ""
		if s.Async {
			async = " async"
		}
		backend := ""
		if s.Backend != "" {
			backend = " (" + s.Backend + ")"
		}
		groups := ""
		if len(s.Groups) > 1 {
			groups = " (or " + strings.Join(s.Groups[1:], ", ") + ")"
		}
		fmt.Fprintf(w, "%s:%d:%d: %s group=%s%s%s stream=%s%s\n", s.Path, s.Line, s.Column, s.API, s.Group, groups, backend, s.Stream, async)
		for _, c := range s.Contexts {
			spawn := ""
			if c.Spawn != "" {
				spawn = "@" + c.Spawn
			}
			many := ""
			if c.Many {
				many = " many"
			}
			grp := ""
			if c.Group != "" {
				grp = " group=" + c.Group
			}
			fmt.Fprintf(w, "\t%s%s%s%s: %s\n", c.Kind, spawn, many, grp, strings.Join(c.Chain, " -> "))
		}
	}
}

package guard

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Contexts is the output of `collvet debug contexts --format=json`: the
// static model's collective sites with the contexts that may run them.
type Contexts struct {
	Sites []StaticSite `json:"sites"`
}

// StaticSite is one collective call site of the static model.
type StaticSite struct {
	Path     string          `json:"path"`
	Line     int             `json:"line"`
	Column   int             `json:"column"`
	API      string          `json:"api"`
	Op       string          `json:"op"`
	Group    string          `json:"group"`
	Backend  string          `json:"backend"`
	Stream   string          `json:"stream"`
	Async    bool            `json:"async"`
	Contexts []StaticContext `json:"contexts"`
}

// StaticContext is where the static model says a site may run.
type StaticContext struct {
	Kind  string   `json:"kind"` // main, thread, pool, autograd, background, signal, goroutine
	Spawn string   `json:"spawn"`
	Many  bool     `json:"many"`
	Chain []string `json:"chain"`
}

// ParseContexts decodes `collvet debug contexts --format=json` output.
func ParseContexts(data []byte) (*Contexts, error) {
	var c Contexts
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("debug contexts output: %v", err)
	}
	return &c, nil
}

// Observation is one (site, thread kind, group) the guard saw at run time.
type Observation struct {
	Path       string // absolute
	Line       int
	ThreadKind string // guard's kind: main, thread, autograd, foreign
	InBackward bool
	Group      string // guard's name, paths absolute
	API        string
	BySpawn    bool // no user frame issued it (library thread): Path:Line is the thread's spawn site
}

func (o Observation) String() string {
	k := map[string]string{"main": "the main thread", "thread": "a Python thread",
		"autograd": "an autograd engine thread", "foreign": "a non-Python thread"}[o.ThreadKind]
	if k == "" {
		k = o.ThreadKind + " thread"
	}
	if o.InBackward {
		k += " inside backward"
	}
	s := fmt.Sprintf("%s:%d %s on %s from %s", o.Path, o.Line, o.API, o.Group, k)
	if o.BySpawn {
		s += " (library thread, located by its spawn site)"
	}
	return s
}

// Observations flattens a record into distinct observations. A call made
// with no user frame on the stack (a library's thread, e.g. async_save's
// executor) is located at the spawn site of its thread.
func Observations(r *Record) []Observation {
	seen := map[Observation]bool{}
	var out []Observation
	for _, c := range r.Calls {
		o := Observation{
			ThreadKind: c.ThreadKind,
			InBackward: c.InBackward != nil && *c.InBackward,
			Group:      c.Group,
			API:        c.API,
		}
		switch {
		case c.Path != nil:
			o.Path, o.Line = *c.Path, c.Line
		default:
			t := r.ThreadByID(c.Thread)
			if t == nil || t.Spawn == nil {
				continue
			}
			p, l, ok := splitSite(*t.Spawn)
			if !ok {
				continue
			}
			o.Path, o.Line, o.BySpawn = p, l, true
		}
		if !seen[o] {
			seen[o] = true
			out = append(out, o)
		}
	}
	return out
}

// StaticKinds returns the static context kinds that predict a thread of
// the guard's kind. The mapping (WITNESS.md explains it):
//
//	main                    main or signal (a signal handler runs on the main thread)
//	main, inside backward   autograd or main (CPU graphs run hooks on the
//	                        thread that called backward(); so does any graph
//	                        with autograd multithreading disabled)
//	thread                  thread, pool or background (+ autograd inside
//	                        backward called from that thread)
//	autograd                autograd (the engine's device threads)
//	foreign                 autograd or background
func StaticKinds(threadKind string, inBackward bool) []string {
	var ks []string
	switch threadKind {
	case "main":
		// A signal handler runs on the main thread.
		ks = []string{"main", "signal"}
	case "thread":
		ks = []string{"thread", "pool", "background"}
	case "autograd":
		ks = []string{"autograd"}
	case "foreign":
		ks = []string{"autograd", "background"}
	}
	if inBackward && threadKind != "autograd" {
		ks = append(ks, "autograd")
	}
	return ks
}

// backgroundAPIs are calls whose collectives run on a thread the library
// starts (design.md: context kind "background").
var backgroundAPIs = map[string]bool{
	"torch.distributed.checkpoint.async_save":                          true,
	"torch.distributed.checkpoint.state_dict_saver.async_save":         true,
	"torch.distributed.checkpoint.state_dict_saver._async_save":        true,
	"torch.distributed.checkpoint.async_checkpointing.async_save":      true,
	"torch.distributed.checkpoint._async_thread_executor.execute_save": true,
}

// Mismatch is an observation the static model did not predict.
type Mismatch struct {
	Observation Observation
	Reason      string
}

func (m Mismatch) String() string { return m.Observation.String() + ": " + m.Reason }

// Compare checks that every observation is predicted by the static model:
// a site at the same file and line, a context of a matching kind, and the
// same group (a static "unknown" or empty group matches any group; see
// Imprecise). staticRoot is the directory the static paths are relative to
// (where `collvet debug contexts` ran).
func Compare(static *Contexts, staticRoot string, obs []Observation) (mismatches []Mismatch, imprecise []string) {
	type key struct {
		path string
		line int
	}
	sites := map[key][]StaticSite{}
	for _, s := range static.Sites {
		k := key{absUnder(staticRoot, s.Path), s.Line}
		sites[k] = append(sites[k], s)
	}
	for _, o := range obs {
		cands := sites[key{filepath.Clean(o.Path), o.Line}]
		if len(cands) == 0 {
			mismatches = append(mismatches, Mismatch{o, "no collective site at this line in the static model"})
			continue
		}
		want := StaticKinds(o.ThreadKind, o.InBackward)
		if o.BySpawn {
			want = append(want, "background")
		}
		var kindOK, groupOK bool
		var seenKinds, seenGroups []string
		for _, s := range cands {
			// A library thread's collectives, located at the call that
			// started the thread, are predicted by that call being a
			// known background-spawning API (its own context is the
			// caller's).
			if o.BySpawn && backgroundAPIs[s.API] {
				kindOK = true
			}
			seenGroups = append(seenGroups, s.Group)
			gm, vague := groupMatches(staticRoot, s.Group, o.Group)
			if vague {
				imprecise = append(imprecise, fmt.Sprintf("%s:%d: static group %q, observed %s", o.Path, o.Line, s.Group, o.Group))
			}
			groupOK = groupOK || gm
			for _, c := range s.Contexts {
				seenKinds = append(seenKinds, c.Kind)
				for _, w := range want {
					if c.Kind == w {
						kindOK = true
					}
				}
			}
		}
		if !kindOK {
			mismatches = append(mismatches, Mismatch{o, fmt.Sprintf("static contexts %v, none of %v", uniq(seenKinds), want)})
		}
		if !groupOK {
			mismatches = append(mismatches, Mismatch{o, fmt.Sprintf("static group %v, observed %s", uniq(seenGroups), o.Group)})
		}
	}
	return mismatches, uniq(imprecise)
}

// groupMatches compares a static group value with a runtime group name.
// vague is true when the static value does not name a group.
func groupMatches(root, static, observed string) (match, vague bool) {
	if static == "" || static == "unknown" || strings.HasPrefix(static, "unknown") {
		return true, true
	}
	if static == observed {
		return true, false
	}
	sk, sp, sl, ok1 := splitGroup(static)
	ok, op, ol, ok2 := splitGroup(observed)
	if !ok1 || !ok2 {
		return false, false
	}
	return sk == ok && sl == ol && absUnder(root, sp) == filepath.Clean(op), false
}

// splitGroup splits "new_group@path:line".
func splitGroup(s string) (kind, path string, line int, ok bool) {
	at := strings.Index(s, "@")
	if at < 0 {
		return "", "", 0, false
	}
	p, l, ok := splitSite(s[at+1:])
	return s[:at], p, l, ok
}

// splitSite splits "path:line".
func splitSite(s string) (string, int, bool) {
	i := strings.LastIndex(s, ":")
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil {
		return "", 0, false
	}
	return s[:i], n, true
}

func absUnder(root, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Clean(filepath.Join(root, p))
}

func uniq(xs []string) []string {
	m := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !m[x] {
			m[x] = true
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}

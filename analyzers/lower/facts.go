package lower

import (
	"fmt"
	"sort"
	"strings"
)

// PosSum is a position in a fact: absolute file name, 1-based line and
// column. Facts keep absolute names so that every package computes the same
// identities; the model shows them relative to the run's directory.
type PosSum struct {
	File      string
	Line, Col int
}

// ValSum is a communicator or stream in a summary: the caller's operand
// Param (receiver first; -1 when fixed), or a fixed value.
type ValSum struct {
	Param   int
	Kind    string // world | alloc | var | stream | nil | unknown
	Name    string
	API     string
	Backend string
	Pos     PosSum
	Path    string // Param: the field path below the operand (".comm")
	Indexed bool
}

// OpSum is one communication a function performs.
type OpSum struct {
	API     string // the table API at the innermost call
	Op      string
	Kind    string
	Library string
	Group   ValSum
	Stream  ValSum
	Stream0 bool // the API has no stream argument
	Pos     PosSum
}

// SpawnSum is a goroutine a function starts, and what it communicates.
type SpawnSum struct {
	API                  string // "go" or the spawner
	Pos                  PosSum
	Many, Joined, Locked bool
	Ops                  []OpSum
}

// Summary is the fact exported for a function that communicates, starts
// communicating goroutines, locks its thread or requests an MPI thread
// level.
type Summary struct {
	Ops      []OpSum
	Spawns   []SpawnSum
	Locks    bool
	Level    string
	LevelPos PosSum
	// SpawnParams are operands (receiver first) holding functions the
	// function runs on a new goroutine: a pool helper's submit(f).
	// SpawnMany: on several goroutines at once.
	SpawnParams []int
	SpawnMany   bool
}

// AFact marks Summary as an analysis fact.
func (*Summary) AFact() {}

// String renders a summary for analysistest fact expectations:
// "ops(all_reduce@0) spawns(go[all_reduce@0]) locks level(multiple)".
func (s *Summary) String() string {
	var parts []string
	ops := func(os []OpSum) string {
		var o []string
		for _, op := range os {
			g := op.Group.Kind
			if op.Group.Param >= 0 {
				g = fmt.Sprint(op.Group.Param)
			}
			o = append(o, op.Op+"@"+g)
		}
		return strings.Join(o, ",")
	}
	if len(s.Ops) > 0 {
		parts = append(parts, "ops("+ops(s.Ops)+")")
	}
	if len(s.Spawns) > 0 {
		var sp []string
		for _, x := range s.Spawns {
			sp = append(sp, x.API+"["+ops(x.Ops)+"]")
		}
		parts = append(parts, "spawns("+strings.Join(sp, ",")+")")
	}
	if s.Locks {
		parts = append(parts, "locks")
	}
	if s.Level != "" {
		parts = append(parts, "level("+s.Level+")")
	}
	if len(s.SpawnParams) > 0 {
		parts = append(parts, fmt.Sprintf("spawnsparam%v", s.SpawnParams))
	}
	return strings.Join(parts, " ")
}

func (s *Summary) empty() bool {
	return len(s.Ops) == 0 && len(s.Spawns) == 0 && !s.Locks && s.Level == "" && len(s.SpawnParams) == 0
}

// PackageSummary marks a package that exports summaries, so that its
// importers are worth lowering.
type PackageSummary struct{}

// AFact marks PackageSummary as an analysis fact.
func (*PackageSummary) AFact() {}

func (*PackageSummary) String() string { return "communicates" }

const maxOps = 64 // per summary: keeps facts small on large wrappers

func (b *builder) toSum(v value) ValSum {
	if v.kind == "param" {
		return ValSum{Param: v.param, Kind: "param", Path: v.path}
	}
	return ValSum{Param: -1, Kind: v.kind, Name: v.name, API: v.api, Backend: v.backend, Pos: v.abs, Indexed: v.indexed}
}

func (b *builder) fromSum(s ValSum) value {
	v := value{kind: s.Kind, name: s.Name, api: s.API, backend: s.Backend, abs: s.Pos, indexed: s.Indexed}
	if v.kind == "" || v.kind == "param" {
		v.kind = "unknown"
	}
	v.pos = b.display(s.Pos)
	return v
}

// exportFacts summarises every function other packages can call.
func (b *builder) exportFacts() {
	any := false
	for _, f := range b.funcs {
		if f.obj == nil || f.parent != nil {
			continue
		}
		if !f.obj.Exported() && f.obj.Signature().Recv() == nil {
			continue
		}
		s := b.summarise(f)
		if s.empty() {
			continue
		}
		b.pass.ExportObjectFact(f.obj, s)
		any = true
	}
	if any {
		b.pass.ExportPackageFact(&PackageSummary{})
	}
}

// summarise walks f with its parameters bound to themselves.
func (b *builder) summarise(f *fn) *Summary {
	if s := b.sums[f]; s != nil {
		return s
	}
	en := env{}
	for i, p := range f.params {
		if p != nil {
			en[p] = value{kind: "param", param: i}
		}
	}
	w := &walker{sum: &Summary{}, seen: map[string]bool{}}
	b.walk(w, f, en, nil, 0)
	w.sum.Locks = f.locks
	for i, many := range f.spawnParams {
		w.sum.SpawnParams = append(w.sum.SpawnParams, i)
		w.sum.SpawnMany = w.sum.SpawnMany || many
	}
	sort.Ints(w.sum.SpawnParams)
	b.sums[f] = w.sum
	return w.sum
}

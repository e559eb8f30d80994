package cv203

import (
	"fmt"
	"sort"
	"strings"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/internal/rulekit"
)

// Lifetimes across the methods of a class. A buffer kept on the instance
// is often allocated by one method on a side stream, used by another on
// a different stream and freed by a third, which the class's driver calls
// in that order (FSDP1's _mp_shard: pre_unshard, unshard,
// free_low_precision_shard, S9). The per-function walk sees none of the
// three together. Here a storage free (x.untyped_storage().resize_(0)) of
// an attribute that the method did not allocate itself is reported when
// another method allocated it on a side stream, yet another used it on a
// different stream, and no method of the class records a stream on it.

type attrUse struct {
	stream *rules.Stream
	text   string
	fn     *rules.Function
	pos    rules.Pos
}

// classWaits are the stream waits of a class's methods: waiter → waited
// stream ids ("*" when the waited stream is unknown).
type classWaits map[string]map[string]bool

func (w classWaits) orders(waiter, waited string) bool {
	return w[waiter][waited] || w[waiter]["*"]
}

type attrFacts struct {
	allocs, uses []attrUse
	frees        []*rules.Event
	freeFn       []*rules.Function
	recorded     bool
}

// classOf is the class part of a method's qualified name, "" for a
// function outside a class (or a module).
func classOf(fn *rules.Function) string {
	i := strings.LastIndexByte(fn.Name, '.')
	if i < 0 {
		return ""
	}
	return fn.Name[:i]
}

func lifetimes(p *rules.Pass) {
	classes := map[string]map[string]*attrFacts{}
	waits := map[string]classWaits{}
	for _, fn := range p.Prog.Funcs {
		if len(fn.Events) == 0 {
			continue
		}
		cls := classOf(fn)
		if cls == "" {
			continue
		}
		attrs := classes[cls]
		if attrs == nil {
			attrs = map[string]*attrFacts{}
			classes[cls] = attrs
		}
		collectAttrs(fn, attrs)
		for _, e := range fn.Events {
			if e.Kind != rules.EvWaitStream && e.Kind != rules.EvWaitEvent {
				continue
			}
			if waits[cls] == nil {
				waits[cls] = classWaits{}
			}
			w := waits[cls]
			if w[sid(e.Stream)] == nil {
				w[sid(e.Stream)] = map[string]bool{}
			}
			other := "*"
			if e.Other != nil {
				other = sid(e.Other)
			}
			w[sid(e.Stream)][other] = true
		}
	}
	names := make([]string, 0, len(classes))
	for c := range classes {
		names = append(names, c)
	}
	sort.Strings(names)
	for _, c := range names {
		attrs := classes[c]
		keys := make([]string, 0, len(attrs))
		for k := range attrs {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			checkLifetime(p, k, attrs[k], waits[c])
		}
	}
}

// collectAttrs records what fn does to the instance's attributes
// (self.x…), through locals bound to them (x = self.x).
func collectAttrs(fn *rules.Function, attrs map[string]*attrFacts) {
	alias := map[string]string{}
	produced := map[string]bool{} // attributes fn writes itself
	attrOf := func(v string) string {
		if strings.HasPrefix(v, "self.") {
			return v
		}
		return alias[v]
	}
	get := func(a string) *attrFacts {
		f := attrs[a]
		if f == nil {
			f = &attrFacts{}
			attrs[a] = f
		}
		return f
	}
	for _, e := range fn.Events {
		switch e.Kind {
		case rules.EvUse:
			if e.Write {
				delete(alias, e.Var)
				if len(e.From) == 1 && strings.HasPrefix(e.From[0], "self.") {
					alias[e.Var] = e.From[0]
					continue
				}
				if strings.HasPrefix(e.Var, "self.") && !e.Host && len(e.From) == 0 {
					produced[e.Var] = true
					if e.Stream != nil {
						get(e.Var).allocs = append(get(e.Var).allocs, attrUse{e.Stream, e.StreamText, fn, e.Pos})
					}
				}
				continue
			}
			if a := attrOf(e.Var); a != "" {
				get(a).uses = append(get(a).uses, attrUse{e.Stream, e.StreamText, fn, e.Pos})
			}
		case rules.EvCollective:
			if e.Site == nil {
				continue
			}
			for _, v := range e.Site.Inputs {
				if a := attrOf(v); a != "" {
					get(a).uses = append(get(a).uses, attrUse{e.Stream, e.StreamText, fn, e.Pos})
				}
			}
		case rules.EvRecordStream:
			if a := attrOf(e.Var); a != "" {
				get(a).recorded = true
			}
		case rules.EvFree:
			if !e.Storage {
				continue
			}
			if a := attrOf(e.Var); a != "" && !produced[a] {
				f := get(a)
				f.frees = append(f.frees, e)
				f.freeFn = append(f.freeFn, fn)
			}
		}
	}
}

func checkLifetime(p *rules.Pass, attr string, f *attrFacts, waits classWaits) {
	if f.recorded || len(f.frees) == 0 || len(f.allocs) == 0 {
		return
	}
	for i, free := range f.frees {
		freeFn := f.freeFn[i]
		for _, a := range f.allocs {
			if a.fn == freeFn {
				continue
			}
			for _, u := range f.uses {
				if u.fn == a.fn || u.fn == freeFn || sid(u.stream) == sid(a.stream) || waits.orders(sid(a.stream), sid(u.stream)) {
					// (A method that makes the allocating stream wait for the
					// user's orders the reuse after the use.)
					continue
				}
				d := rules.Diagnostic{Pos: free.Pos, Message: fmt.Sprintf(
					"%q is allocated on %s (%s, in %s), used on %s (%s, in %s) and its storage is freed here without "+
						"record_stream for %s: the allocator can hand the memory to new work on %s while %s still uses it "+
						"(use-after-free, silent corruption)",
					attr, stext(a.text, a.stream), a.pos.Short(), shortName(a.fn), stext(u.text, u.stream), u.pos.Short(), shortName(u.fn),
					stext(u.text, u.stream), stext(a.text, a.stream), stext(u.text, u.stream))}
				d.Related = append(d.Related,
					rulekit.Related(a.pos, fmt.Sprintf("%q allocated on %s", attr, stext(a.text, a.stream))),
					rulekit.Related(u.pos, fmt.Sprintf("%q used on %s", attr, stext(u.text, u.stream))))
				if isIdent(free.Var) && free.Stream == nil {
					rec := u.text
					if u.stream == nil {
						rec = currentStream(p.Prog.File(free.Pos.Path))
					}
					if rec != "" && (u.stream == nil || strings.HasPrefix(rec, "self.")) {
						file := p.Prog.File(free.Pos.Path)
						d.Fixes = append(d.Fixes, rules.Fix{Title: "Record the stream that uses the tensor before freeing it",
							Edits: []rules.Edit{rulekit.InsertBefore(free.Pos.Path, stmtLine(free), indent(file, free)+free.Var+".record_stream("+rec+")\n")}})
					}
				}
				p.Report(d)
				return
			}
		}
	}
}

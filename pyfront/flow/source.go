package flow

import (
	"bytes"
	"slices"
	"strings"
	"sync"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/rules"
)

// source indexes the lines of a file once; Lower runs once per function,
// so the index is shared by all functions of a file (see Sources).
type source struct {
	src    []byte
	starts []int
	// streamy: the file mentions a stream at all (computed once, on
	// first use, by mentionsStream).
	streamOnce sync.Once
	streamy    bool
	asciiOnce  sync.Once
	ascii      bool
	// folded: an ASCII file's text in lower case, made once (by
	// mentionsAny), so that each function's span is searched as it is
	// and not lowered again for every question asked of it.
	foldOnce sync.Once
	folded   []byte
	// inits: the file mentions init_process_group (mentionsInit).
	initOnce sync.Once
	inits    bool
	// mpi: the file calls a method named like one of mpi4py's buffer
	// methods (callsMPIBuffers).
	mpiOnce sync.Once
	mpi     bool
	// mpiRaises: the file uses mpi4py and installs no exception hook nor
	// calls Abort (mpiRaiseFile).
	raiseOnce sync.Once
	mpiRaises bool
}

// mpiRaiseFile reports a file that uses mpi4py without an exception hook
// or an Abort: an uncaught exception there does not end the job.
func (s *source) mpiRaiseFile() bool {
	s.raiseOnce.Do(func() {
		s.mpiRaises = bytes.Contains(s.src, []byte("mpi4py")) && !bytes.Contains(s.src, []byte("excepthook")) &&
			!bytes.Contains(s.src, []byte("Abort(")) && !bytes.Contains(s.src, []byte("mpi4py.run"))
	})
	return s.mpiRaises
}

// callsMPIBuffers reports whether the text of span calls a method named
// like one of mpi4py's buffer methods (".Allreduce(", ".Send(", matched
// with case): only then can it hand device buffers to MPI
// (unorderedReads). The file is searched once first.
func (s *source) callsMPIBuffers(span ast.Pos) bool {
	s.mpiOnce.Do(func() {
		// A file that never says mpi (mpi4py, MPI, init_mpi) holds no
		// communicator to call them on, as far as one can tell cheaply.
		s.mpi = (bytes.Contains(s.src, []byte("mpi")) || bytes.Contains(s.src, []byte("MPI"))) && callsMPIMethod(s.src)
	})
	if !s.mpi {
		return false
	}
	text, ok := s.spanText(span)
	return !ok || callsMPIMethod(text)
}

// callsMPIMethod reports text that calls a method named like one of
// mpi4py's buffer methods (".Allreduce(", ".Send("), in one pass.
func callsMPIMethod(b []byte) bool {
	for i := 0; ; {
		k := bytes.IndexByte(b[i:], '.')
		if k < 0 {
			return false
		}
		i += k + 1
		if i >= len(b) || b[i] < 'A' || b[i] > 'Z' {
			continue
		}
		j := i
		for j < len(b) && (b[j] == '_' || b[j] >= 'a' && b[j] <= 'z' || b[j] >= 'A' && b[j] <= 'Z') {
			j++
		}
		if j < len(b) && b[j] == '(' {
			if _, ok := mpiBufferArgs[string(b[i:j])]; ok {
				return true
			}
		}
		i = j
	}
}

// mentionsInit reports whether the file's text names init_process_group:
// only then can one of its functions be a helper that makes the group
// (helperInitBinding).
func (s *source) mentionsInit() bool {
	s.initOnce.Do(func() {
		s.inits = bytes.Contains(s.src, []byte("init_process_group"))
	})
	return s.inits
}

// mentionsStream reports whether the file's text mentions "stream" in
// any case: only such files can hold methods whose stream effects a
// caller inherits (inlineCalls).
func (s *source) mentionsStream() bool {
	s.streamOnce.Do(func() {
		s.streamy = bytes.Contains(s.src, []byte("stream")) || bytes.Contains(s.src, []byte("Stream")) || bytes.Contains(s.src, []byte("STREAM"))
	})
	return s.streamy
}

// mentionsLightning reports a file that names Lightning (its modules'
// step hooks run inside the strategy's wrapper).
func (s *source) mentionsLightning() bool {
	return bytes.Contains(s.src, []byte("ightning"))
}

// Sources holds the line index of each file for the functions lowered
// with it. A Resolver that has one (SourceIndex) lets Lower index each
// file once instead of once per function; it lives as long as the
// resolver, so that nothing outlives an analysis (an editor runs one per
// edit). It is safe for concurrent use.
type Sources struct {
	m              sync.Map // *rules.File -> *source
	waits          sync.Map // *rules.Function -> map[string]rules.EventKind (waitedParams)
	returns        sync.Map // *rules.Function -> returnFlow (returnedParams)
	streamy        sync.Map // *rules.Function -> bool (its definition mentions a stream; inlineCalls)
	regroups       sync.Map // *rules.Function -> regrouping (regroupedArgs)
	getters        sync.Map // *rules.Function -> getter (getterRefs)
	keptRets       sync.Map // *rules.Function -> keptResult (keptRefs)
	agreedRets     sync.Map // *rules.Function -> bool (returnsAgreed)
	recordOnly     sync.Map // *rules.Function -> recordOnly (recordOnlyArgs)
	yieldGates     sync.Map // *rules.Function -> yieldGate (skippingIteration)
	rankYields     sync.Map // *rules.Function -> yieldGate (rankYieldLoop)
	fsYields       sync.Map // *rules.Function -> yieldGate (fsYieldLoop)
	rankTests      sync.Map // *rules.Function -> bool (returnsRankTest)
	rootedResults  sync.Map // *rules.Function -> bool (returnsRootedResult)
	noneParams     sync.Map // *rules.Function -> map[string]bool (noneReturnParams)
	rootedOnce     sync.Once
	funcsOnce      sync.Once
	funcsByName    map[string]*rules.Function   // the program's functions by qualified name (funcNamed)
	methodsByShort map[string][]*rules.Function // the program's methods by name (methodsNamed)
	rootedSites    bool                         // the program has a site of rootedInPlace
	fsAnswers      sync.Map                     // *rules.Function -> bool (returnsFsProbe)
	fsAnswersAt    sync.Map                     // fsAtKey -> bool (returnsFsProbeAt)
	fsElems        sync.Map                     // *rules.Function -> map[int]bool (fsReturnedElements)
	fsCountElems   sync.Map                     // *rules.Function -> map[int]bool (fsCountReturns)
	storedRets     sync.Map                     // *rules.Function -> bool (returnsStored)
	hostSyncs      sync.Map                     // *rules.Function -> bool (hostSyncs)
	nodeSplitRets  sync.Map                     // *rules.Function -> bool (returnsNodeSplit)
	rankShareRets  sync.Map                     // *rules.Function -> bool (returnsRankShare)
	rankShareAt    sync.Map                     // fsAtKey (the ranked parameters) -> bool (returnsRankShareAt)
	returnedParam  sync.Map                     // returnedAt -> handedBack (handsBack)
	namesChecks    sync.Map                     // *rules.Function -> bool (namesCheck)
	reducedParams  sync.Map                     // reducedParam -> bool (reducesParam)
	fsspecLocals   sync.Map                     // *rules.Function -> map[string]bool (fsspecLocals)
	enclosing      sync.Map                     // *rules.Function -> map[string]bool (enclosingRanks)
	agreedAttrs    sync.Map                     // *rules.Function -> []string (agreedSetAttrs)
	nodeSplitOnce  sync.Once
	nodeSplit      bool     // a file names split_by_node (splitsByNode)
	fsListRets     sync.Map // *rules.Function -> bool (returnsListing)
	fsAttrs        sync.Map // ast.Node (an __init__) -> []string (initFsAttrs)
	hostAttrs      sync.Map // ast.Node (an __init__) -> []string (initHostAttrs)
	heldGroups     sync.Map // ast.Node (an __init__) -> map[string]bool (initHeldGroups)
	pairGetters    sync.Map // *rules.Function -> bool (pairGetter)
	rankObjRets    sync.Map // *rules.Function -> map[int]bool (rankObjectReturns)
	rankSetFlags   sync.Map // *rules.Function -> []string (methodRankFlags)
	uniformParams  sync.Map // *rules.Function -> map[string]bool (uniformParams)
	constRets      sync.Map // *rules.Function -> bool (returnsConstants)
	hostRets       sync.Map // *rules.Function -> hostResult (hostCall)
	closureRets    sync.Map // *rules.Function -> bool (returnsClosure)
	turns          sync.Map // *rules.Function -> bool (cmTakesTurns)
	rankElems      sync.Map // *rules.Function -> map[int]bool (returnedRankElements)
	objects        sync.Map // *rules.Function -> bool (returnsObjects)
	sharedRets     sync.Map // *rules.Function -> forwardSum (forwardReturns with parameters)
	forwardRets    sync.Map // *rules.Function -> forwardSum (forwardReturns without)
	nanFlagRets    sync.Map // *rules.Function -> map[int]int (nanFlagReturns)
	cleanExits     sync.Map // *rules.Function -> *helperExit (helperCleanExit)
	oomNones       sync.Map // *rules.Function -> *oomNone (oomNoneReturn)
	jaxFiles       sync.Map // *rules.File -> bool (jaxProgram)

	// lightningZero3: the program runs Lightning with ZeRO-3
	// (lightningZero3).
	lightningZero3Once sync.Once
	lightningZero3     bool

	defsOnce sync.Once
	defs     map[string]bool // the last names of the program's functions (programDefines)
}

// splitsByNode reports whether a file of the program names WebDataset's
// split_by_node or Hugging Face's split_dataset_by_node: only then are
// the node-split checks (nodeSplitData) worth their cost.
func (s *Sources) splitsByNode(prog *rules.Program) bool {
	s.nodeSplitOnce.Do(func() {
		for _, f := range prog.Files {
			if bytes.Contains(f.Src, []byte("split_by_node")) || bytes.Contains(f.Src, []byte("split_dataset_by_node")) {
				s.nodeSplit = true
				return
			}
		}
	})
	return s.nodeSplit
}

// programDefines reports whether the program defines a function or
// method of this name (a Bucket's full(), which an unresolved
// receiver's .full() may call as well as a queue's).
func (s *Sources) programDefines(prog *rules.Program, name string) bool {
	s.defsOnce.Do(func() {
		s.defs = map[string]bool{}
		for _, f := range prog.Funcs {
			if !f.ModuleBody {
				s.defs[f.Name[strings.LastIndexByte(f.Name, '.')+1:]] = true
			}
		}
	})
	return s.defs[name]
}

// summarize returns fn's summary from m, computing and storing it on
// first use (the summaries of one analysis: waitedParams,
// returnedParams, defMentionsStream).
func summarize[T any](m *sync.Map, fn *rules.Function, compute func() T) T {
	if v, ok := m.Load(fn); ok {
		return v.(T)
	}
	v := compute()
	m.Store(fn, v)
	return v
}

// summarizeGuarded is summarize for a summary that may ask for itself (a
// recursive helper): while fn's is being computed, it is T's zero value.
func summarizeGuarded[T any](m *sync.Map, fn *rules.Function, compute func() T) T {
	if v, ok := m.Load(fn); ok {
		return v.(T)
	}
	var zero T
	m.Store(fn, zero)
	v := compute()
	m.Store(fn, v)
	return v
}

// markBound marks in vars each name that body assigns, anywhere in its
// scope, a value pred accepts: the locals of a helper judged in a lowerer
// of its own. pred may read vars (`r = get_rank(); x = r`).
func markBound(body []ast.Stmt, vars map[string]bool, pred func(ast.Expr) bool) {
	ast.InspectBody(body, func(n ast.Node) bool {
		if a, ok := ast.AsAssign(n); ok && len(a.Targets) == 1 {
			if t, ok := a.Targets[0].(*ast.Name); ok && pred(a.Value) {
				vars[t.Id] = true
			}
		}
		return true
	})
}

// defOf returns the body and parameters of a program function's def, for
// the summaries above (ok false when the resolver cannot show it).
func (l *lowerer) defOf(fn *rules.Function) (body []ast.Stmt, args *ast.Arguments, ok bool) {
	fd, isDefiner := l.r.(FuncDefiner)
	if !isDefiner {
		return nil, nil, false
	}
	body, args, _, ok = defParts(fd.FuncDef(fn))
	return body, args, ok && args != nil
}

// calleeDef returns the program function c calls, other than the one
// being lowered, with its body; ok is false for any other call.
func (l *lowerer) calleeDef(c *ast.Call) (fn *rules.Function, body []ast.Stmt, ok bool) {
	_, fn = l.callee(c)
	if fn == nil || fn == l.fn {
		return nil, nil, false
	}
	body, _, ok = l.defOf(fn)
	return fn, body, ok
}

// receiverShift is 1 when c calls a method (obj.m(…)) of a function whose
// first parameter is self or cls: the receiver fills that parameter, and
// the call's first argument is the function's second one.
func receiverShift(c *ast.Call, first string) int {
	if _, method := c.Func.(*ast.Attribute); method && (first == "self" || first == "cls") {
		return 1
	}
	return 0
}

// SourceIndex is implemented by a Resolver that keeps a Sources for the
// whole analysis.
type SourceIndex interface {
	Sources() *Sources
}

func (c *Sources) of(f *rules.File) *source {
	if s, ok := c.m.Load(f); ok {
		return s.(*source)
	}
	v, _ := c.m.LoadOrStore(f, newSource(f))
	return v.(*source)
}

// Seed gives f's line index, when the caller has it already (the starts
// of its lines, 0 first), so that it is not computed again, and its text
// in lower case when it is ASCII (Fold), or nil.
func (c *Sources) Seed(f *rules.File, starts []int, folded []byte) {
	s := &source{src: f.Src, starts: starts}
	if folded != nil && len(folded) == len(f.Src) {
		s.ascii, s.folded = true, folded
		s.asciiOnce.Do(func() {})
		s.foldOnce.Do(func() {})
	}
	c.m.LoadOrStore(f, s)
}

// Fold returns ASCII text in lower case, what mentions searches, and nil
// for text that is not ASCII.
func Fold(text []byte) []byte {
	for _, b := range text {
		if b >= 0x80 {
			return nil
		}
	}
	return foldASCII(text)
}

// sourceFor returns f's line index, shared through r when r keeps one.
func sourceFor(r Resolver, f *rules.File) *source {
	if si, ok := r.(SourceIndex); ok {
		if c := si.Sources(); c != nil {
			return c.of(f)
		}
	}
	return newSource(f)
}

func newSource(f *rules.File) *source {
	return &source{src: f.Src, starts: LineStarts(f.Src)}
}

// LineStarts returns the byte offset of each line of src: 0, then the
// offset after each newline.
func LineStarts(src []byte) []int {
	starts := make([]int, 1, bytes.Count(src, []byte{'\n'})+1)
	for i, rest := 0, src; ; {
		j := bytes.IndexByte(rest, '\n')
		if j < 0 {
			return starts
		}
		i += j + 1
		starts = append(starts, i)
		rest = rest[j+1:]
	}
}

// line returns 1-based line n without its line ending ("" when out of range).
func (s *source) line(n int) string {
	if n < 1 || n > len(s.starts) {
		return ""
	}
	b := s.src[s.starts[n-1]:]
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	return string(bytes.TrimSuffix(b, []byte("\r")))
}

// mentions reports whether the text of span (lines Lineno..EndLineno)
// contains word, ignoring ASCII case. A zero span (Module) means the
// whole file.
func (s *source) mentions(span ast.Pos, word string) bool {
	return s.mentionsAny(span, []string{word})
}

// mentionsAny is mentions for several words, lowering the span once.
func (s *source) mentionsAny(span ast.Pos, words []string) bool {
	text, ok := s.spanText(span)
	if !ok {
		return true
	}
	if !s.isASCII() {
		text = bytes.ToLower(text)
		for _, w := range words {
			if bytes.Contains(text, []byte(w)) {
				return true
			}
		}
		return false
	}
	// Most files are ASCII: their text is lowered once, whole, and each
	// span is a slice of that at the same offsets.
	s.foldOnce.Do(func() { s.folded = foldASCII(s.src) })
	from, to, _ := s.spanBounds(span)
	lower := s.folded[from:to]
	for _, w := range words {
		if bytes.Contains(lower, []byte(w)) {
			return true
		}
	}
	return false
}

// foldASCII returns a copy of ASCII text in lower case.
func foldASCII(text []byte) []byte {
	out := make([]byte, len(text))
	for i, c := range text {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

// spanText returns the text of span's lines (lines Lineno..EndLineno;
// the whole file for a zero span). ok is false for a span the lines do
// not hold in order, which callers take as "may mention anything".
func (s *source) spanText(span ast.Pos) (text []byte, ok bool) {
	from, to, ok := s.spanBounds(span)
	if !ok {
		return nil, false
	}
	return s.src[from:to], true
}

// spanBounds returns the byte offsets spanText's text lies between.
func (s *source) spanBounds(span ast.Pos) (from, to int, ok bool) {
	from, to = 0, len(s.src)
	if span.Lineno > 0 && int(span.Lineno) <= len(s.starts) {
		from = s.starts[span.Lineno-1]
		if n := int(span.EndLineno); n >= 1 && n < len(s.starts) {
			to = s.starts[n]
		}
	}
	if from > to {
		return 0, 0, false
	}
	return from, to, true
}

// isASCII reports whether the file's text is all ASCII (computed once).
func (s *source) isASCII() bool {
	s.asciiOnce.Do(func() {
		s.ascii = true
		for _, b := range s.src {
			if b >= 0x80 {
				s.ascii = false
				break
			}
		}
	})
	return s.ascii
}

// boundArgs returns the parameters of fn that call c passes a variable
// or an attribute path to (`self.prepare(label)`: prepare's `label`),
// and those variables, in the same order: a flow rule that follows the
// call into fn's events sees the caller's tensors under fn's names.
func (l *lowerer) boundArgs(c *ast.Call, fn *rules.Function) (params, from []string) {
	_, args, ok := l.defOf(fn)
	if !ok {
		return nil, nil
	}
	names := args.PositionalNames()
	if len(names) > 0 {
		names = names[receiverShift(c, names[0]):]
	}
	for i, a := range c.Args {
		if _, star := a.(*ast.Starred); star || i >= len(names) {
			break
		}
		if d := dotted(a); d != "" {
			params, from = append(params, names[i]), append(from, d)
		}
	}
	for _, k := range c.Keywords {
		if d := dotted(k.Value); d != "" && k.Arg != "" && slices.Contains(args.PositionalNames(), k.Arg) {
			params, from = append(params, k.Arg), append(from, d)
		}
	}
	return params, from
}

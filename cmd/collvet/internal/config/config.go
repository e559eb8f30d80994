// Package config loads collvet's configuration: the [tool.collvet] table of
// a pyproject.toml, or a collvet.toml (top-level keys, or a [tool.collvet]
// table), found by walking up from the analysed paths.
//
// The shape (all keys optional):
//
//	[tool.collvet]
//	select = ["CV1", "CV301"]       # codes or prefixes; default: all rules
//	ignore = ["CV401"]
//	exclude = ["build/**", "third_party/**"]   # globs, relative to the config file
//	[tool.collvet.per-path-ignores]
//	"tests/**" = ["CV301"]
//	[tool.collvet.severity]
//	CV401 = "info"                  # error | warning | info
//	[[tool.collvet.collective]]     # extra API declarations: the shapes of rules/api data
//	name = "mylib.comm.allreduce"
//	op = "all_reduce"
//	kind = "collective"
//	[[tool.collvet.spawner]]        # also group_creator, rank_predicate, stream, aliases, reexports
//
// A configuration error is never silently replaced by defaults: unknown
// keys, wrong types and bad values are reported as "file:line: key: problem".
package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/bmatcuk/doublestar/v4"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/api"
)

// Config is a loaded configuration. The zero value (and nil) means defaults.
type Config struct {
	// Path is the file it came from; "" for defaults.
	Path string
	// Root is the directory globs are relative to (the config file's
	// directory).
	Root string

	Select []string // rule codes or prefixes; empty: all rules
	Ignore []string
	// Exclude globs (doublestar, relative to Root) name files and
	// directories skipped when walking directories.
	Exclude []string
	// PerPathIgnores: globs (relative to Root) and the codes or prefixes
	// ignored in matching files, in file order.
	PerPathIgnores []PathIgnore
	// Severity overrides the default severity per rule code.
	Severity map[string]rules.Severity
	// Library holds extra API declarations (nil when there are none).
	Library *api.Library
}

// PathIgnore is one per-path-ignores entry.
type PathIgnore struct {
	Glob  string
	Codes []string
}

// Error is a configuration error with its location.
type Error struct {
	Path string
	Line int // 0 when unknown
	Key  string
	Msg  string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Path)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Key != "" {
		fmt.Fprintf(&b, "%s: ", e.Key)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// FileNames are the configuration files looked for in each directory, in
// order of preference.
var FileNames = []string{"collvet.toml", "pyproject.toml"}

// Discover walks up from each path's directory and loads the first
// configuration found (a pyproject.toml without [tool.collvet] does not
// count). The walk stops at the root of the enclosing repository (a
// directory holding .git): files above the project are not its
// configuration. When paths have different configurations the one of the first
// path wins. It returns nil, nil when there is none.
func Discover(paths []string) (*Config, error) {
	if len(paths) == 0 {
		paths = []string{"."}
	}
	seen := map[string]bool{}
	for _, p := range paths {
		if strings.Contains(p, "...") { // a Go package pattern
			p = strings.TrimSuffix(strings.SplitN(p, "...", 2)[0], "/")
			if p == "" {
				p = "."
			}
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		dir := abs
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			dir = filepath.Dir(abs)
		}
		for {
			if seen[dir] {
				break
			}
			seen[dir] = true
			for _, name := range FileNames {
				f := filepath.Join(dir, name)
				data, err := os.ReadFile(f)
				if err != nil {
					continue
				}
				if name == "pyproject.toml" && !hasCollvetTable(data) {
					continue
				}
				return Parse(f, data)
			}
			if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
				break
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return nil, nil
}

var collvetTableRE = regexp.MustCompile(`(?m)^\s*\[\[?\s*tool\s*\.\s*collvet\s*[\].]`)

func hasCollvetTable(data []byte) bool { return collvetTableRE.Match(data) }

// Load reads and parses one configuration file.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &Error{Path: path, Msg: err.Error()}
	}
	return Parse(path, data)
}

// raw is the decoded [tool.collvet] table.
type raw struct {
	Select         []string             `toml:"select"`
	Ignore         []string             `toml:"ignore"`
	Exclude        []string             `toml:"exclude"`
	PerPathIgnores map[string][]string  `toml:"per-path-ignores"`
	Severity       map[string]string    `toml:"severity"`
	Collectives    []*api.Collective    `toml:"collective"`
	Spawners       []*api.Spawner       `toml:"spawner"`
	GroupCreators  []*api.GroupCreator  `toml:"group_creator"`
	RankPredicates []*api.RankPredicate `toml:"rank_predicate"`
	Streams        []*api.StreamAPI     `toml:"stream"`
	Aliases        map[string]string    `toml:"aliases"`
	Reexports      map[string][]string  `toml:"reexports"`
	Modules        []string             `toml:"modules"`
}

// apiKeys are the keys of raw that declare APIs, passed to api.Parse.
var apiKeys = []string{"collective", "spawner", "group_creator", "rank_predicate", "stream", "aliases", "reexports", "modules"}

// Parse parses configuration text; path names it in errors and decides the
// shape: pyproject.toml reads [tool.collvet], any other file reads its top
// level (or its [tool.collvet] table when it has one).
func Parse(path string, data []byte) (*Config, error) {
	src := string(data)
	var generic map[string]any
	if _, err := toml.Decode(src, &generic); err != nil {
		return nil, tomlError(path, src, err)
	}
	prefix := toml.Key{"tool", "collvet"}
	section, hasTool := lookupTable(generic, "tool", "collvet")
	if filepath.Base(path) != "pyproject.toml" && !hasTool {
		prefix = nil
		section = generic
	}
	if section == nil {
		section = map[string]any{}
	}

	// Decode the section strictly. Decoding the whole document (rather than
	// the section alone) keeps BurntSushi's line numbers right.
	var r raw
	var md toml.MetaData
	var err error
	if prefix == nil {
		md, err = toml.Decode(src, &r)
	} else {
		var doc struct {
			Tool struct {
				Collvet raw `toml:"collvet"`
			} `toml:"tool"`
		}
		md, err = toml.Decode(src, &doc)
		r = doc.Tool.Collvet
	}
	if err != nil {
		return nil, tomlError(path, src, err)
	}
	var unknown []toml.Key
	for _, k := range md.Undecoded() {
		if len(k) >= len(prefix) && k[:len(prefix)].String() == prefix.String() {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		k := unknown[0]
		return nil, &Error{Path: path, Line: keyLine(src, k), Key: k.String(), Msg: "unknown key"}
	}

	cfg := &Config{Path: path, Root: filepath.Dir(path), Exclude: r.Exclude}
	keyErr := func(key toml.Key, format string, args ...any) error {
		full := append(append(toml.Key{}, prefix...), key...)
		return &Error{Path: path, Line: keyLine(src, full), Key: full.String(), Msg: fmt.Sprintf(format, args...)}
	}
	for _, s := range r.Select {
		if err := CheckSelector(s); err != nil {
			return nil, keyErr(toml.Key{"select"}, "%v", err)
		}
	}
	for _, s := range r.Ignore {
		if err := CheckSelector(s); err != nil {
			return nil, keyErr(toml.Key{"ignore"}, "%v", err)
		}
	}
	cfg.Select, cfg.Ignore = r.Select, r.Ignore
	for _, g := range r.Exclude {
		if !doublestar.ValidatePattern(g) {
			return nil, keyErr(toml.Key{"exclude"}, "invalid glob %q", g)
		}
	}
	globs := make([]string, 0, len(r.PerPathIgnores))
	for g := range r.PerPathIgnores {
		globs = append(globs, g)
	}
	// Keep file order (TOML maps lose it): sort by line.
	sort.Slice(globs, func(i, j int) bool {
		li := keyLine(src, append(append(toml.Key{}, prefix...), "per-path-ignores", globs[i]))
		lj := keyLine(src, append(append(toml.Key{}, prefix...), "per-path-ignores", globs[j]))
		if li != lj {
			return li < lj
		}
		return globs[i] < globs[j]
	})
	for _, g := range globs {
		if !doublestar.ValidatePattern(g) {
			return nil, keyErr(toml.Key{"per-path-ignores", g}, "invalid glob %q", g)
		}
		for _, s := range r.PerPathIgnores[g] {
			if err := CheckSelector(s); err != nil {
				return nil, keyErr(toml.Key{"per-path-ignores", g}, "%v", err)
			}
		}
		cfg.PerPathIgnores = append(cfg.PerPathIgnores, PathIgnore{Glob: g, Codes: r.PerPathIgnores[g]})
	}
	if len(r.Severity) > 0 {
		cfg.Severity = map[string]rules.Severity{}
		codes := make([]string, 0, len(r.Severity))
		for c := range r.Severity {
			codes = append(codes, c)
		}
		sort.Strings(codes)
		for _, c := range codes {
			s := rules.Severity(r.Severity[c])
			if s.Rank() == 0 {
				return nil, keyErr(toml.Key{"severity", c}, "severity %q: want error, warning or info", r.Severity[c])
			}
			if !codeRE.MatchString(c) {
				return nil, keyErr(toml.Key{"severity", c}, "%q is not a rule code (CV and three digits)", c)
			}
			cfg.Severity[c] = s
		}
	}

	// API declarations: hand exactly those keys to api.Parse, which knows
	// their shapes (and normalizes absent arguments).
	apiPart := map[string]any{}
	for _, k := range apiKeys {
		if v, ok := section[k]; ok {
			apiPart[k] = v
		}
	}
	if len(apiPart) > 0 {
		apiPart["library"] = "config"
		var buf bytes.Buffer
		if err := toml.NewEncoder(&buf).Encode(apiPart); err != nil {
			return nil, &Error{Path: path, Msg: "API declarations: " + err.Error()}
		}
		lib, err := api.Parse(path, buf.Bytes())
		if err != nil {
			msg := strings.TrimPrefix(err.Error(), path+": ")
			return nil, &Error{Path: path, Line: keyLine(src, append(append(toml.Key{}, prefix...), firstAPIKey(apiPart)...)), Msg: "API declarations: " + msg}
		}
		for _, c := range lib.Collectives {
			if c.Name == "" {
				return nil, keyErr(toml.Key{"collective"}, "an entry has no name")
			}
		}
		for _, s := range lib.Spawners {
			if s.Name == "" {
				return nil, keyErr(toml.Key{"spawner"}, "an entry has no name")
			}
		}
		cfg.Library = lib
	}
	return cfg, nil
}

func firstAPIKey(m map[string]any) toml.Key {
	for _, k := range apiKeys {
		if _, ok := m[k]; ok {
			return toml.Key{k}
		}
	}
	return nil
}

func lookupTable(m map[string]any, keys ...string) (map[string]any, bool) {
	for _, k := range keys {
		v, ok := m[k].(map[string]any)
		if !ok {
			return nil, false
		}
		m = v
	}
	return m, true
}

var lineRE = regexp.MustCompile(`line (\d+)`)

// tomlError converts a BurntSushi error into an *Error with a line.
func tomlError(path, src string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return &Error{Path: path, Line: pe.Position.Line, Key: pe.LastKey, Msg: pe.Message}
	}
	msg := strings.TrimPrefix(err.Error(), "toml: ")
	e := &Error{Path: path, Msg: msg}
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		msg = strings.TrimSpace(strings.TrimPrefix(msg, m[0]))
	}
	if m := regexp.MustCompile(`^\(last key "([^"]*)"\):\s*`).FindStringSubmatch(msg); m != nil {
		e.Key = m[1]
		msg = msg[len(m[0]):]
	}
	e.Msg = msg
	if e.Line == 0 && e.Key != "" {
		e.Line = keyLine(src, strings.Split(e.Key, "."))
	}
	return e
}

// keyLine finds the 1-based line where key is defined (or its table
// header, or its parent key for inline tables), by a line-oriented scan of
// the TOML text: enough for the flat files configuration uses. It returns 0
// when not found.
func keyLine(src string, key toml.Key) int {
	for n := len(key); n > 0; n-- {
		if l := keyLine1(src, key[:n]); l > 0 {
			return l
		}
	}
	return 0
}

func keyLine1(src string, key toml.Key) int {
	var table []string
	best := 0
	for i, line := range strings.Split(src, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' {
			continue
		}
		if strings.HasPrefix(t, "[") {
			h := strings.Trim(t, "[] \t")
			if j := strings.Index(h, "]"); j >= 0 {
				h = h[:j]
			}
			table = splitKey(h)
			if prefixOf(table, key) && best == 0 && len(table) == len(key) {
				best = i + 1
			}
			continue
		}
		eq := strings.IndexByte(t, '=')
		if eq < 0 {
			continue
		}
		full := append(append([]string{}, table...), splitKey(strings.TrimSpace(t[:eq]))...)
		if prefixOf(full, key) || prefixOf(key, full) && len(full) > len(table) {
			if equalKey(full, key) {
				return i + 1
			}
			if best == 0 && prefixOf(key, full) {
				best = i + 1
			}
		}
	}
	return best
}

// splitKey splits a dotted TOML key, honouring quoted parts ("a.b".c).
func splitKey(s string) []string {
	var out []string
	var cur strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '.':
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(out, strings.TrimSpace(cur.String()))
}

func prefixOf(a, b []string) bool {
	if len(a) > len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func equalKey(a, b []string) bool { return len(a) == len(b) && prefixOf(a, b) }

var (
	codeRE     = regexp.MustCompile(`^CV\d{3}$`)
	selectorRE = regexp.MustCompile(`^CV\d{0,3}$`)
)

// CheckSelector validates a select/ignore entry: a code (CV101), a prefix
// (CV1, CV), "ALL", or a rule name (collective-from-multiple-threads).
func CheckSelector(s string) error {
	if s == "ALL" || selectorRE.MatchString(s) {
		return nil
	}
	if rules.Lookup(s) != nil {
		return nil
	}
	return fmt.Errorf("%q is not a rule code, prefix (CV1) or rule name", s)
}

// Matches reports whether rule r is named by selector s.
func Matches(s string, r *rules.Rule) bool {
	if s == "ALL" {
		return true
	}
	if strings.HasPrefix(s, "CV") {
		return strings.HasPrefix(r.Code, s)
	}
	return s == r.Name
}

// MatchesAny reports whether any selector names r.
func MatchesAny(sel []string, r *rules.Rule) bool {
	for _, s := range sel {
		if Matches(s, r) {
			return true
		}
	}
	return false
}

// IgnoredAt returns the per-path selectors that apply to path (as given
// on the command line; made relative to Root for matching).
func (c *Config) IgnoredAt(path string) []string {
	if c == nil || len(c.PerPathIgnores) == 0 {
		return nil
	}
	rel := c.Rel(path)
	var out []string
	for _, pi := range c.PerPathIgnores {
		if matchGlob(pi.Glob, rel) {
			out = append(out, pi.Codes...)
		}
	}
	return out
}

// Excluded reports whether path matches an exclude glob.
func (c *Config) Excluded(path string) bool {
	if c == nil || len(c.Exclude) == 0 {
		return false
	}
	rel := c.Rel(path)
	for _, g := range c.Exclude {
		if matchGlob(g, rel) {
			return true
		}
	}
	return false
}

// Rel returns path relative to the configuration's root, slash-separated.
func (c *Config) Rel(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil || c.Root == "" {
		return filepath.ToSlash(path)
	}
	root, err := filepath.Abs(c.Root)
	if err != nil {
		return filepath.ToSlash(path)
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}

// matchGlob matches a glob against a slash path; a glob without a slash
// matches the base name at any depth (as .gitignore and ruff do), and a
// glob naming a directory matches everything below it.
func matchGlob(glob, rel string) bool {
	glob = strings.TrimPrefix(glob, "./")
	if ok, _ := doublestar.Match(glob, rel); ok {
		return true
	}
	if !strings.Contains(strings.TrimSuffix(glob, "/"), "/") {
		g := strings.TrimSuffix(glob, "/")
		for _, part := range strings.Split(rel, "/") {
			if ok, _ := doublestar.Match(g, part); ok {
				return true
			}
		}
		return false
	}
	if ok, _ := doublestar.Match(strings.TrimSuffix(glob, "/")+"/**", rel); ok {
		return true
	}
	return false
}

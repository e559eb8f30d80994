package config

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/collvet/collvet/rules"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDiscover(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	writeFile(t, filepath.Join(root, "pyproject.toml"), "[tool.collvet]\nignore = [\"CV401\"]\n")
	writeFile(t, filepath.Join(root, "sub", "pyproject.toml"), "[tool.black]\nx = 1\n") // not ours: keep walking
	writeFile(t, filepath.Join(root, "sub", "deep", "a.py"), "")
	writeFile(t, filepath.Join(root, "other", "collvet.toml"), "select = [\"CV1\"]\n")
	writeFile(t, filepath.Join(root, "other", "pyproject.toml"), "[tool.collvet]\nselect = [\"CV2\"]\n")

	cfg, err := Discover([]string{filepath.Join(root, "sub", "deep", "a.py")})
	if err != nil || cfg == nil || cfg.Path != filepath.Join(root, "pyproject.toml") || len(cfg.Ignore) != 1 {
		t.Fatalf("Discover = %+v, %v", cfg, err)
	}
	cfg, err = Discover([]string{filepath.Join(root, "other")})
	if err != nil || cfg == nil || filepath.Base(cfg.Path) != "collvet.toml" || cfg.Select[0] != "CV1" {
		t.Fatalf("collvet.toml preferred: %+v, %v", cfg, err)
	}
	// The walk stops at the repository root.
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "collvet.toml"), "select = [\"CV1\"]\n")
	repo := filepath.Join(outside, "repo")
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	if cfg, err := Discover([]string{repo}); err != nil || cfg != nil {
		t.Errorf("config above the repository used: %+v, %v", cfg, err)
	}
}

func TestParseShapes(t *testing.T) {
	// collvet.toml: top level or [tool.collvet].
	for _, body := range []string{
		"select = [\"CV1\"]\n[severity]\nCV101 = \"warning\"\n",
		"[tool.collvet]\nselect = [\"CV1\"]\n[tool.collvet.severity]\nCV101 = \"warning\"\n",
	} {
		cfg, err := Parse("collvet.toml", []byte(body))
		if err != nil || cfg.Severity["CV101"] != rules.Warning || cfg.Select[0] != "CV1" {
			t.Errorf("%q: %+v %v", body, cfg, err)
		}
	}
	cfg, err := Parse("pyproject.toml", []byte(`[project]
name = "x"

[tool.collvet]
exclude = ["third_party/**"]

[tool.collvet.per-path-ignores]
"tests/**" = ["CV301"]
"scripts/*.py" = ["CV1", "CV401"]

[[tool.collvet.collective]]
name = "mylib.comm.all_reduce_wrapper"
op = "all_reduce"
kind = "collective"
group = { pos = 1, name = "group" }

[[tool.collvet.spawner]]
name = "mylib.run_in_background"
context = "thread"
target = 0

[tool.collvet.reexports]
"mylib" = ["mylib.comm"]
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.PerPathIgnores) != 2 || cfg.PerPathIgnores[0].Glob != "tests/**" {
		t.Errorf("per-path-ignores (file order) = %+v", cfg.PerPathIgnores)
	}
	lib := cfg.Library
	if lib == nil || len(lib.Collectives) != 1 || len(lib.Spawners) != 1 {
		t.Fatalf("library = %+v", lib)
	}
	c := lib.Collectives[0]
	if c.Group.Pos != 1 || c.Async.Present() || c.Stream.Present() {
		t.Errorf("collective args: group %+v async %+v stream %+v (absent args must not be position 0)", c.Group, c.Async, c.Stream)
	}
	if s := lib.Spawners[0]; s.Target.Pos != 0 || s.Args.Present() {
		t.Errorf("spawner args: target %+v args %+v", s.Target, s.Args)
	}
	if got := lib.Reexports["mylib"]; len(got) != 1 || got[0] != "mylib.comm" {
		t.Errorf("reexports = %+v", lib.Reexports)
	}
}

func TestErrorsCarryFileLineKey(t *testing.T) {
	cases := []struct {
		body string
		line int
		key  string
	}{
		{"[tool.collvet]\n\nselect = [\"CV1\"]\nunknown_key = 1\n", 4, "tool.collvet.unknown_key"},
		{"[tool.collvet]\nseverity = { CV101 = \"loud\" }\n", 2, "tool.collvet.severity.CV101"},
		{"[tool.collvet.severity]\nCV101 = \"error\"\nwhatever = \"info\"\n", 3, "tool.collvet.severity.whatever"},
		{"[tool.collvet]\n[[tool.collvet.spawner]]\nname = \"x\"\ncontext = \"thread\"\ntarget = true\n", 5, "tool.collvet.spawner.target"},
	}
	for _, c := range cases {
		_, err := Parse("pyproject.toml", []byte(c.body))
		var ce *Error
		if !errors.As(err, &ce) {
			t.Errorf("%q: error %v is not a *Error", c.body, err)
			continue
		}
		if ce.Path != "pyproject.toml" || ce.Line != c.line || c.key != "" && ce.Key != c.key {
			t.Errorf("%q: got %s (line %d key %q), want line %d key %q", c.body, ce, ce.Line, ce.Key, c.line, c.key)
		}
	}
}

func TestMatching(t *testing.T) {
	cfg := &Config{Root: "/p", Exclude: []string{"build/**", "*_pb2.py"}, PerPathIgnores: []PathIgnore{{Glob: "tests/**", Codes: []string{"CV3"}}}}
	if !cfg.Excluded("/p/build/x.py") || !cfg.Excluded("/p/a/b/x_pb2.py") || cfg.Excluded("/p/src/x.py") {
		t.Error("Excluded")
	}
	if got := cfg.IgnoredAt("/p/tests/unit/t.py"); len(got) != 1 || got[0] != "CV3" {
		t.Errorf("IgnoredAt = %v", got)
	}
	if got := cfg.IgnoredAt("/p/src/tests.py"); got != nil {
		t.Errorf("IgnoredAt = %v", got)
	}
	r := &rules.Rule{Code: "CV301", Name: "rank-conditional-collective"}
	for sel, want := range map[string]bool{"CV3": true, "CV301": true, "CV30": true, "CV4": false, "ALL": true, "rank-conditional-collective": true, "CV": true} {
		if got := Matches(sel, r); got != want {
			t.Errorf("Matches(%q) = %v", sel, got)
		}
	}
}

package guard

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// The runtime witness: every fixture in testdata/witness runs as two gloo
// ranks on CPU under the guard, and what ran is held against the fixture's
// "# witness:" header and against the static model
// (`collvet debug contexts --format=json`). WITNESS.md describes the
// fixtures, the thread-kind mapping and the CUDA observations.

// witnessSpec is a fixture's header:
//
//	# witness: hazard | safe
//	# witness: sequential        (safe: threads share a group one after another)
//	# witness: expect-cpu CODES  (guard hazards on two gloo ranks on CPU)
//	# witness: expect-cuda CODES (on CUDA with NCCL; scripts/witness)
//	# witness: requires FEATURE  (skip without it: async_save)
type witnessSpec struct {
	safe, sequential bool
	requires         []string // torch features the fixture needs
	expectCPU        []string
	seen             bool
}

func parseSpec(t *testing.T, path string) witnessSpec {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s witnessSpec
	var kind bool
	for _, line := range strings.Split(string(data), "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "# witness:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			continue
		}
		s.seen = true
		switch f[0] {
		case "safe":
			s.safe, kind = true, true
		case "hazard":
			kind = true
		case "sequential":
			s.sequential = true
		case "expect-cpu":
			s.expectCPU = append([]string{}, f[1:]...)
		case "expect-cuda":
		case "requires":
			s.requires = append(s.requires, f[1:]...)
		default:
			t.Fatalf("%s: unknown witness header %q", path, f[0])
		}
	}
	if !s.seen || !kind {
		t.Fatalf("%s: no '# witness: hazard|safe' header", path)
	}
	sort.Strings(s.expectCPU)
	return s
}

// runRanks runs fixture as world ranks under the guard (warn mode) and
// returns each rank's record. A run past its timeout fails the test with
// every thread's stack, as the launcher dumps them.
func runRanks(t *testing.T, py, gdir, fixture string, world int) []*Record {
	t.Helper()
	root := moduleRoot(t)
	launch := filepath.Join(root, "testdata", "witness", "harness", "launch.py")
	for attempt := 0; ; attempt++ {
		recs, stderrs, err := runRanksOnce(t, py, gdir, launch, fixture, world, 120, t.TempDir())
		if err == nil {
			return recs
		}
		joined := strings.Join(stderrs, "\n")
		if attempt == 0 && transportFlake(joined) {
			// Gloo's ranks meet on kernel-chosen ports; on a machine
			// running many tests at once a connection can be refused
			// before the peer listens. One retry tells that apart from
			// a fixture that really fails.
			continue
		}
		t.Fatalf("%s: %v\n%s", filepath.Base(fixture), err, joined)
	}
}

// runRanksOnce starts the ranks; timeout (seconds) is the launcher's hang
// limit; records go to dir.
func runRanksOnce(t *testing.T, py, gdir, launch, fixture string, world, timeout int, dir string) ([]*Record, []string, error) {
	// The ranks rendezvous through a file store in the run's own directory:
	// unlike a TCP store on a probed port, nothing another test does can
	// take it between probe and bind.
	store := filepath.ToSlash(filepath.Join(dir, "rendezvous"))
	// The launcher's own limit starts after torch is imported; the outer
	// one leaves room for slow imports on a busy machine.
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(timeout+240)*time.Second)
	defer cancel()
	cmds := make([]*exec.Cmd, world)
	stderrs := make([]bytes.Buffer, world)
	for r := range world {
		c := exec.CommandContext(ctx, py, launch, fixture)
		c.Env = append(os.Environ(),
			fmt.Sprintf("RANK=%d", r),
			fmt.Sprintf("WORLD_SIZE=%d", world),
			"WITNESS_INIT=file://"+store,
			"WITNESS_BACKEND=gloo",
			"WITNESS_GUARD_DIR="+gdir,
			"WITNESS_GUARD_MODE=warn",
			// Runs stay short: the fixtures order their threads (no
			// WITNESS_RACE) and issue one round of collectives.
			"WITNESS_RACE=0",
			"WITNESS_ITERS=1",
			"WITNESS_JSON="+filepath.Join(dir, "rank{rank}.json"),
			fmt.Sprintf("WITNESS_TIMEOUT=%d", timeout),
		)
		c.Stdout = &stderrs[r]
		c.Stderr = &stderrs[r]
		cmds[r] = c
		if err := c.Start(); err != nil {
			return nil, nil, err
		}
	}
	var errs []error
	for r, c := range cmds {
		if err := c.Wait(); err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) && ee.ExitCode() == 124 {
				err = fmt.Errorf("hung (stacks below)")
			} else if ctx.Err() != nil {
				err = fmt.Errorf("killed after %ds: %v", timeout+240, err)
			}
			errs = append(errs, fmt.Errorf("rank %d: %w", r, err))
		}
	}
	out := make([]string, world)
	for r := range world {
		out[r] = fmt.Sprintf("--- rank %d output:\n%s", r, stderrs[r].String())
	}
	if len(errs) > 0 {
		return nil, out, errors.Join(errs...)
	}
	recs := make([]*Record, world)
	for r := range world {
		rec, err := ReadRecord(filepath.Join(dir, fmt.Sprintf("rank%d.json", r)))
		if err != nil {
			return nil, out, err
		}
		recs[r] = rec
	}
	return recs, out, nil
}

// transportFlake reports whether a failed run's output shows the
// rendezvous or a gloo connection failing, rather than the fixture.
func transportFlake(output string) bool {
	for _, s := range []string{"ddress already in use", "Connection refused", "Connection reset by peer"} {
		if strings.Contains(output, s) {
			return true
		}
	}
	return false
}

// staticModel runs `collvet debug contexts --format=json` on the fixtures,
// or says why it cannot.
func staticModel(t *testing.T, root string, fixtures []string) (*Contexts, string) {
	t.Helper()
	bin, why := collvetBinary(t)
	if bin == "" {
		return nil, why
	}
	help, _ := exec.Command(bin, "help").CombinedOutput()
	if !strings.Contains(string(help), "debug contexts") {
		return nil, "collvet has no 'debug contexts' command yet; the static comparison is skipped"
	}
	args := []string{"debug", "contexts", "--format=json"}
	for _, f := range fixtures {
		rel, err := filepath.Rel(root, f)
		if err != nil {
			t.Fatal(err)
		}
		args = append(args, rel)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		t.Fatalf("collvet %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	ctxs, err := ParseContexts(out)
	if err != nil {
		t.Fatal(err)
	}
	return ctxs, ""
}

var (
	binOnce sync.Once
	binPath string
	binWhy  string
)

// collvetBinary builds the collvet command once (or takes COLLVET_BIN).
func collvetBinary(t *testing.T) (string, string) {
	t.Helper()
	root := moduleRoot(t)
	binOnce.Do(func() {
		if p := os.Getenv("COLLVET_BIN"); p != "" {
			binPath = p
			return
		}
		dir, err := os.MkdirTemp("", "collvet-witness-")
		if err != nil {
			binWhy = err.Error()
			return
		}
		exe := filepath.Join(dir, "collvet")
		gotool := filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, err := os.Stat(gotool); err != nil {
			gotool = "go"
		}
		cmd := exec.Command(gotool, "build", "-o", exe, "./cmd/collvet")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			binWhy = "collvet does not build: " + lastLine(string(out))
			return
		}
		binPath = exe
	})
	if binPath == "" && os.Getenv("COLLVET_REQUIRE_CORPUS") == "1" {
		t.Fatalf("collvet binary needed: %s", binWhy)
	}
	return binPath, binWhy
}

func TestWitness(t *testing.T) {
	py := requireTorch(t)
	root := moduleRoot(t)
	fixtures, err := filepath.Glob(filepath.Join(root, "testdata", "witness", "*.py"))
	if err != nil || len(fixtures) == 0 {
		t.Fatalf("no witness fixtures: %v", err)
	}
	gdir := guardDir(t)
	static, why := staticModel(t, root, fixtures)
	if static == nil {
		t.Logf("static comparison skipped: %s", why)
	}
	for _, fixture := range fixtures {
		name := strings.TrimSuffix(filepath.Base(fixture), ".py")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			spec := parseSpec(t, fixture)
			for _, feature := range spec.requires {
				if !torchHas(t, py, feature) {
					t.Skipf("this torch lacks %s", feature)
				}
			}
			recs := runRanks(t, py, gdir, fixture, 2)
			checkRun(t, fixture, spec, recs)
			t.Run("static", func(t *testing.T) {
				if static == nil {
					t.Skip(why)
				}
				var obs []Observation
				for _, r := range recs {
					obs = append(obs, Observations(r)...)
				}
				mm, vague := Compare(static, root, obs)
				for _, m := range mm {
					t.Errorf("not predicted by the static model: %s", m)
				}
				for _, v := range vague {
					t.Logf("imprecise: %s", v)
				}
			})
		})
	}
}

// features maps a "# witness: requires" name to a Python check.
var features = map[string]string{
	"async_save": "import torch.distributed.checkpoint as c; assert hasattr(c, 'async_save')",
}

func torchHas(t *testing.T, py, feature string) bool {
	t.Helper()
	check, ok := features[feature]
	if !ok {
		t.Fatalf("unknown feature %q in a witness header", feature)
	}
	return exec.Command(py, "-c", check).Run() == nil
}

// checkRun holds the runtime record against the fixture's header.
func checkRun(t *testing.T, fixture string, spec witnessSpec, recs []*Record) {
	t.Helper()
	var codes []string
	for r, rec := range recs {
		if rec.Rank == nil || *rec.Rank != r {
			t.Errorf("record %d says rank %v", r, rec.Rank)
		}
		if len(rec.InternalErrors) > 0 {
			t.Errorf("rank %d: guard internal errors %v", r, rec.InternalErrors)
		}
		if len(rec.Calls) == 0 {
			t.Errorf("rank %d recorded no calls", r)
		}
		for _, c := range rec.HazardCodes() {
			if !slices.Contains(codes, c) {
				codes = append(codes, c)
			}
		}
		for _, c := range rec.Calls {
			if c.Path == nil || *c.Path != fixture {
				t.Errorf("rank %d: %s located at %v, want a line of the fixture", r, c.API, c.Path)
			}
		}
		if spec.safe && !spec.sequential {
			for _, g := range rec.Groups {
				if len(g.Threads) > 1 {
					t.Errorf("rank %d: safe fixture used group %s from %d threads", r, g.Name, len(g.Threads))
				}
			}
		}
	}
	sort.Strings(codes)
	if !slices.Equal(codes, spec.expectCPU) {
		t.Errorf("guard reported %v on CPU, header expects %v", codes, spec.expectCPU)
	}
	if spec.safe && len(codes) > 0 {
		t.Errorf("safe fixture, guard reported %v", codes)
	}
}

func TestWitnessHangFailsWithStacks(t *testing.T) {
	py := requireTorch(t)
	root := moduleRoot(t)
	harness := filepath.Join(root, "testdata", "witness", "harness")
	probe := filepath.Join(harness, "hang_probe.py")
	m := marks(t, probe)
	dir := t.TempDir()
	_, out, err := runRanksOnce(t, py, guardDir(t), filepath.Join(harness, "launch.py"), probe, 2, 5, dir)
	if err == nil {
		t.Fatal("a run that hangs passed")
	}
	// The first rank to time out exits; its peer may then fail on the
	// closed connection instead of timing out too.
	hung := -1
	for r := range 2 {
		if strings.Contains(err.Error(), fmt.Sprintf("rank %d: hung", r)) {
			hung = r
			break
		}
	}
	if hung < 0 {
		t.Fatalf("no rank reported hung: %v\n%s", err, strings.Join(out, "\n"))
	}
	line := m[fmt.Sprintf("rank%d", hung)]
	for _, want := range []string{
		fmt.Sprintf("witness: rank %d hung for 5 s", hung),
		fmt.Sprintf("hang_probe.py\", line %d in main", line),
		"in watchdog",
	} {
		if !strings.Contains(out[hung], want) {
			t.Errorf("hung rank's output lacks %q:\n%s", want, out[hung])
		}
	}
	rec, err := ReadRecord(filepath.Join(dir, fmt.Sprintf("rank%d.json", hung)))
	if err != nil {
		t.Fatalf("hung rank wrote no guard record: %v", err)
	}
	if len(rec.Calls) != 1 || rec.Calls[0].Line != line {
		t.Errorf("record of the hung rank: %+v, want one call at line %d", rec.Calls, line)
	}
}

func TestGuardCommand(t *testing.T) {
	bin, why := collvetBinary(t)
	if bin == "" {
		t.Skip(why)
	}
	dir := t.TempDir()
	out, err := exec.Command(bin, "guard", "--write", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("collvet guard --write: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), filepath.Join(dir, FileName)) {
		t.Errorf("output %q does not name the file", out)
	}
	got, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil || !bytes.Equal(got, Source()) {
		t.Errorf("written module differs from the embedded one (%v)", err)
	}
	printed, err := exec.Command(bin, "guard").Output()
	if err != nil || !bytes.Equal(printed, Source()) {
		t.Errorf("collvet guard (no flags) must print the module (%v)", err)
	}
	for _, args := range [][]string{
		{"guard", "--write", filepath.Join(dir, "missing")},
		{"guard", "extra"},
		{"guard", "--bogus"},
	} {
		err := exec.Command(bin, args...).Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Errorf("collvet %s: want exit 2, got %v", strings.Join(args, " "), err)
		}
	}
}

// TestWitnessRecords compares guard records made elsewhere (the device
// machine: scripts/witness/device_records.sh) with the static model. Set
// WITNESS_RECORDS to a directory; files are named FIXTURE.VARIANT.RUN.rankR.json
// as scripts/witness/hangrate.py --keep-logs writes them.
func TestWitnessRecords(t *testing.T) {
	dir := os.Getenv("WITNESS_RECORDS")
	if dir == "" {
		t.Skip("set WITNESS_RECORDS to a directory of guard records")
	}
	root := moduleRoot(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	byFixture := map[string][]*Record{}
	for _, f := range files {
		name := filepath.Base(f)
		fixture := filepath.Join(root, "testdata", "witness", name[:strings.Index(name, ".")]+".py")
		if _, err := os.Stat(fixture); err != nil {
			continue
		}
		rec, err := ReadRecord(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		byFixture[fixture] = append(byFixture[fixture], rec)
	}
	if len(byFixture) == 0 {
		t.Fatalf("no records of witness fixtures in %s", dir)
	}
	var fixtures []string
	for f := range byFixture {
		fixtures = append(fixtures, f)
	}
	sort.Strings(fixtures)
	static, why := staticModel(t, root, fixtures)
	if static == nil {
		t.Skip(why)
	}
	for _, f := range fixtures {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".py"), func(t *testing.T) {
			var obs []Observation
			for _, r := range byFixture[f] {
				obs = append(obs, Observations(r)...)
			}
			mm, vague := Compare(static, root, obs)
			for _, m := range mm {
				t.Errorf("not predicted by the static model: %s", m)
			}
			for _, v := range vague {
				t.Logf("imprecise: %s", v)
			}
			for _, o := range obs {
				t.Logf("observed %s", o)
			}
		})
	}
}

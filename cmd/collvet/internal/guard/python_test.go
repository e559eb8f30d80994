package guard

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// The cases of testdata/cases.py the tests read; all run in one Python
// process (importing torch dominates the time), once per test binary.
var caseNames = []string{
	"thread_one_group", "foreign_thread", "cv103_device", "cv103_gloo_quiet",
	"raise_mode", "serialize_mode", "safe_programs", "recording", "exchange_order",
}

var (
	casesOnce sync.Once
	casesDir  string
	casesErr  string
	// scratch: the directories the shared run made, removed by TestMain
	// once every test of the package has read them.
	scratch []string
)

func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range scratch {
		os.RemoveAll(d)
	}
	os.Exit(code)
}

// runCase returns the record of one case of testdata/cases.py (one gloo
// rank, world size 1), its extra facts, and the warnings it printed.
func runCase(t *testing.T, name string) (*Record, map[string]any, string) {
	t.Helper()
	py := requireTorch(t)
	casesOnce.Do(func() {
		script, err := filepath.Abs(filepath.Join("testdata", "cases.py"))
		if err != nil {
			casesErr = err.Error()
			return
		}
		dir, err := os.MkdirTemp("", "collvet-guard-cases-")
		if err != nil {
			casesErr = err.Error()
			return
		}
		scratch = append(scratch, dir)
		gdir, err := os.MkdirTemp("", "collvet-guard-")
		if err == nil {
			scratch = append(scratch, gdir)
			_, err = Write(gdir)
		}
		if err != nil {
			casesErr = err.Error()
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, py, append([]string{script, dir}, caseNames...)...)
		cmd.Env = append(os.Environ(), "COLLVET_GUARD_DIR="+gdir)
		if out, err := cmd.CombinedOutput(); err != nil {
			casesErr = fmt.Sprintf("cases.py: %v\n%s", err, out)
			return
		}
		casesDir = dir
	})
	if casesErr != "" {
		t.Fatal(casesErr)
	}
	path := filepath.Join(casesDir, name+".json")
	rec, err := ReadRecord(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Extra map[string]any `json:"extra"`
	}
	data, _ := os.ReadFile(path)
	if err := jsonUnmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if e, ok := doc.Extra["error"].(string); ok {
		t.Fatalf("case %s failed:\n%s", name, e)
	}
	if len(rec.InternalErrors) > 0 {
		t.Errorf("guard internal errors: %v", rec.InternalErrors)
	}
	var warned strings.Builder
	if ws, ok := doc.Extra["warnings"].([]any); ok {
		for _, w := range ws {
			fmt.Fprint(&warned, w)
		}
	}
	return rec, doc.Extra, warned.String()
}

func hazard(rec *Record, code string) *Hazard {
	for i := range rec.Hazards {
		if rec.Hazards[i].Code == code {
			return &rec.Hazards[i]
		}
	}
	return nil
}

func callAt(rec *Record, line int) *Call {
	for i := range rec.Calls {
		if rec.Calls[i].Line == line {
			return &rec.Calls[i]
		}
	}
	return nil
}

func TestGuardCV101OneGroupTwoThreads(t *testing.T) {
	t.Parallel()
	rec, _, stderr := runCase(t, "thread_one_group")
	m := marks(t, filepath.Join("testdata", "cases.py"))
	if got := rec.HazardCodes(); !slices.Equal(got, []string{"CV101"}) {
		t.Fatalf("hazards %v, want [CV101]", got)
	}
	h := hazard(rec, "CV101")
	// The main thread's call comes second: it is the one that makes two
	// live threads on WORLD.
	if h.Line == nil || *h.Line != m["main_call"] || h.Group == nil || *h.Group != "WORLD" || len(h.Threads) != 2 {
		t.Errorf("CV101 at line %v group %v threads %v; want line %d, WORLD, 2 threads", h.Line, h.Group, h.Threads, m["main_call"])
	}
	if !strings.Contains(stderr, "cases.py:"+itoa(m["main_call"])+": CollvetGuardWarning: CV101 ") ||
		!strings.Contains(stderr, "[collective-from-multiple-threads]") {
		t.Errorf("warning not in the static rules' style:\n%s", stderr)
	}
	if strings.Count(stderr, "CollvetGuardWarning") != 1 {
		t.Errorf("want exactly one warning:\n%s", stderr)
	}
	th := callAt(rec, m["thread_call"])
	if th == nil || th.ThreadKind != "thread" || th.Group != "WORLD" {
		t.Fatalf("worker call: %+v", th)
	}
	if tr := rec.ThreadByID(th.Thread); tr == nil || tr.Spawn == nil || !strings.Contains(*tr.Spawn, "cases.py:") {
		t.Errorf("worker thread without spawn site: %+v", tr)
	}
	if mc := callAt(rec, m["main_call"]); mc == nil || mc.ThreadKind != "main" || mc.Thread == th.Thread {
		t.Errorf("main call: %+v", mc)
	}
}

func TestGuardCV102ForeignThread(t *testing.T) {
	t.Parallel()
	rec, extra, _ := runCase(t, "foreign_thread")
	m := marks(t, filepath.Join("testdata", "cases.py"))
	c := callAt(rec, m["foreign_call"])
	if c == nil {
		t.Fatal("call from the foreign thread not recorded")
	}
	if extra["has_graph_task_id"] == true {
		// PyTorch 2.x can tell that this thread is not inside backward.
		if c.ThreadKind != "foreign" || hazard(rec, "CV102") != nil {
			t.Errorf("foreign thread outside backward: kind %s, hazards %v", c.ThreadKind, rec.HazardCodes())
		}
		return
	}
	// PyTorch 1.x: a thread not started by Python counts as the autograd
	// engine's.
	if c.ThreadKind != "autograd" {
		t.Errorf("thread kind %s, want autograd", c.ThreadKind)
	}
	if h := hazard(rec, "CV102"); h == nil || h.Line == nil || *h.Line != m["foreign_call"] {
		t.Errorf("want CV102 at line %d, got %+v", m["foreign_call"], rec.Hazards)
	}
}

func TestGuardCV103DeviceCommunicators(t *testing.T) {
	t.Parallel()
	rec, _, _ := runCase(t, "cv103_device")
	m := marks(t, filepath.Join("testdata", "cases.py"))
	h := hazard(rec, "CV103")
	if h == nil {
		t.Fatalf("want CV103, got %v", rec.HazardCodes())
	}
	if *h.Line != m["cv103_thread"] && *h.Line != m["cv103_main"] {
		t.Errorf("CV103 at line %d", *h.Line)
	}
	if hazard(rec, "CV101") != nil {
		t.Error("one thread per group: no CV101 expected")
	}
	var named bool
	for _, g := range rec.Groups {
		if strings.HasPrefix(g.Name, "new_group@") && strings.HasSuffix(g.Name, "cases.py:"+itoa(m["group_a"])) && g.Device {
			named = true
		}
	}
	if !named {
		t.Errorf("group not named by its creation site: %+v", rec.Groups)
	}
	quiet, _, _ := runCase(t, "cv103_gloo_quiet")
	if len(quiet.Hazards) != 0 {
		t.Errorf("gloo groups are not device communicators by default: %v", quiet.HazardCodes())
	}
}

func TestGuardCV302ExchangeOrder(t *testing.T) {
	t.Parallel()
	rec, extra, stderr := runCase(t, "exchange_order")
	m := marks(t, filepath.Join("testdata", "cases.py"))
	if got := rec.HazardCodes(); !slices.Equal(got, []string{"CV302"}) {
		t.Fatalf("hazards %v, want [CV302] (once: the parity order and the interrupted pair stay quiet)", got)
	}
	h := hazard(rec, "CV302")
	if h.Line == nil || *h.Line != m["exchange_recv"] {
		t.Errorf("CV302 at line %v, want the receive at %d", h.Line, m["exchange_recv"])
	}
	if !strings.Contains(h.Message, "sent to rank 1 (") || !strings.Contains(h.Message, "cases.py:"+itoa(m["exchange_send"])) {
		t.Errorf("message lacks the peer or the send's location: %s", h.Message)
	}
	if !strings.Contains(stderr, "CollvetGuardWarning: CV302 ") || !strings.Contains(stderr, "[send-before-receive-exchange]") {
		t.Errorf("warning not in the static rules' style:\n%s", stderr)
	}
	if extra["stand_ins_wrapped"] != true {
		t.Errorf("the guard did not wrap the stand-ins; the case no longer tests what it says: %v", extra)
	}
}

func TestGuardRaiseMode(t *testing.T) {
	t.Parallel()
	_, extra, _ := runCase(t, "raise_mode")
	if extra["raised"] != "CV101" {
		t.Fatalf("raise mode: raised %v, want CV101", extra["raised"])
	}
	if msg, _ := extra["message"].(string); !strings.HasPrefix(msg, "CV101 all_reduce on group WORLD") {
		t.Errorf("message %q", msg)
	}
}

func TestGuardSerializeMode(t *testing.T) {
	t.Parallel()
	rec, extra, _ := runCase(t, "serialize_mode")
	if extra["completed_after_call"] != true {
		t.Errorf("serialize mode: async work not complete when the call returned")
	}
	if rec.Mode != "serialize" || len(rec.Calls) != 1 || !rec.Calls[0].Async {
		t.Errorf("record: mode %s calls %+v", rec.Mode, rec.Calls)
	}
}

func TestGuardQuietOnSafePrograms(t *testing.T) {
	t.Parallel()
	rec, _, stderr := runCase(t, "safe_programs")
	m := marks(t, filepath.Join("testdata", "cases.py"))
	if len(rec.Hazards) != 0 || strings.Contains(stderr, "CollvetGuardWarning") {
		t.Fatalf("safe programs: hazards %v\n%s", rec.HazardCodes(), stderr)
	}
	hook := callAt(rec, m["cpu_hook"])
	if hook == nil || hook.ThreadKind != "main" || hook.InBackward == nil || !*hook.InBackward {
		t.Errorf("CPU hook: want main thread inside backward, got %+v", hook)
	}
	if j := callAt(rec, m["joined_thread"]); j == nil || j.ThreadKind != "thread" {
		t.Errorf("joined thread's call: %+v", j)
	}
}

func TestGuardRecordsEveryCallShape(t *testing.T) {
	t.Parallel()
	rec, extra, _ := runCase(t, "recording")
	m := marks(t, filepath.Join("testdata", "cases.py"))
	group := "new_group@"
	for _, g := range rec.Groups {
		if strings.HasPrefix(g.Name, "new_group@") {
			group = g.Name
		}
	}
	if !strings.HasSuffix(group, "cases.py:"+itoa(m["new_group"])) || !filepath.IsAbs(strings.TrimPrefix(group, "new_group@")) {
		t.Errorf("group name %q", group)
	}
	want := []struct {
		mark, api, group string
		async            bool
	}{
		{"on_new_group", "torch.distributed.all_reduce", group, false},
		{"group_world", "torch.distributed.all_reduce", "WORLD", false},
		{"positional_async", "torch.distributed.broadcast", "WORLD", true},
		{"object_collective", "torch.distributed.all_gather_object", "WORLD", false},
		{"pg_method", "ProcessGroup.allreduce", group, true},
		{"barrier", "torch.distributed.barrier", "WORLD", false},
	}
	for _, w := range want {
		c := callAt(rec, m[w.mark])
		if c == nil {
			t.Errorf("%s: no call recorded at line %d", w.mark, m[w.mark])
			continue
		}
		if c.API != w.api || c.Group != w.group || c.Async != w.async || c.Count != 1 || c.ThreadKind != "main" {
			t.Errorf("%s: got %s on %s async=%v count=%d kind=%s; want %s on %s async=%v",
				w.mark, c.API, c.Group, c.Async, c.Count, c.ThreadKind, w.api, w.group, w.async)
		}
	}
	// all_gather_object calls all_gather inside torch: recorded once, as
	// the user's call.
	if n := extra["calls_before_uninstall"]; n != float64(len(want)+boolInt(extra["subgroups"] == true)) {
		t.Errorf("calls before uninstall = %v, want %d (nested calls must not count)", n, len(want))
	}
	if extra["restored"] != true {
		t.Error("uninstall did not restore the wrapped functions")
	}
	report, _ := extra["report"].(string)
	for _, s := range []string{"group WORLD (gloo)", "group " + group, "no hazards", "all_gather_object on WORLD"} {
		if !strings.Contains(report, s) {
			t.Errorf("report lacks %q:\n%s", s, report)
		}
	}
	wrapped, _ := extra["wrapped"].([]any)
	if len(wrapped) < 20 || !slices.Contains(wrapped, any("torch.distributed.batch_isend_irecv")) ||
		!slices.Contains(wrapped, any("ProcessGroup.allreduce")) {
		t.Errorf("wrapped: %v", wrapped)
	}
	if len(rec.Wrapped) != 0 {
		t.Errorf("after uninstall the record lists wrapped functions: %v", rec.Wrapped)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

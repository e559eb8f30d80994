package guard

import (
	"encoding/json"
	"fmt"
	"os"
)

// Record is the document collvet_guard.dump_json writes (schema version 1):
// what one process (rank) did while the guard was installed.
type Record struct {
	Version        int        `json:"version"`
	Tool           string     `json:"tool"`
	Mode           string     `json:"mode"`
	Torch          string     `json:"torch"`
	Python         string     `json:"python"`
	PID            int        `json:"pid"`
	Rank           *int       `json:"rank"`
	WorldSize      *int       `json:"world_size"`
	MainNativeID   *int64     `json:"main_native_id"`
	Wrapped        []string   `json:"wrapped"`
	Threads        []Thread   `json:"threads"`
	Groups         []Group    `json:"groups"`
	Calls          []Call     `json:"calls"`
	Creations      []Creation `json:"creations"`
	Hazards        []Hazard   `json:"hazards"`
	InternalErrors []string   `json:"internal_errors"`
}

// Thread is a thread that issued at least one call.
type Thread struct {
	NativeID int64  `json:"native_id"`
	Name     string `json:"name"`
	// Kind: "main", "thread" (started by Python's threading module),
	// "autograd" (not started by Python, inside backward or where that
	// cannot be told: the autograd engine's device threads) or "foreign".
	Kind   string  `json:"kind"`
	Class  string  `json:"class"`
	Spawn  *string `json:"spawn"` // "path:line" of Thread.start, if seen
	Daemon bool    `json:"daemon"`
	// Start orders the thread's start among calls (0: not seen starting).
	Start int64 `json:"start"`
}

// Group is a process group, named as collvet's model names it: "WORLD",
// "new_group@path:line", or "unregistered#N" for groups whose creation the
// guard did not see.
type Group struct {
	Name      string  `json:"name"`
	Instance  int     `json:"instance"` // k-th group created at that site
	Backend   string  `json:"backend"`
	Device    bool    `json:"device"`
	CreatedAt *string `json:"created_at"`
	Calls     int     `json:"calls"`
	Threads   []int64 `json:"threads"` // native ids
}

// Call aggregates the calls of one API at one location from one thread on
// one group.
type Call struct {
	API        string  `json:"api"`
	Op         string  `json:"op"`
	Group      string  `json:"group"`
	Instance   int     `json:"instance"`
	Backend    string  `json:"backend"`
	Thread     int64   `json:"thread"`
	ThreadName string  `json:"thread_name"`
	ThreadKind string  `json:"thread_kind"`
	InBackward *bool   `json:"in_backward"`
	Path       *string `json:"path"` // first frame outside torch, stdlib and the guard
	Line       int     `json:"line"`
	Function   *string `json:"function"`
	// LibraryLocation is the first frame outside torch and the guard when
	// it differs from Path (a standard-library frame, e.g. a thread pool).
	LibraryLocation *string `json:"library_location"`
	Async           bool    `json:"async"`
	Stream          string  `json:"stream"`
	Count           int     `json:"count"`
	FirstSeq        int     `json:"first_seq"`
	LastSeq         int     `json:"last_seq"`
}

// Creation is a group-creating call.
type Creation struct {
	API  string `json:"api"`
	Site string `json:"site"`
}

// Hazard is one reported hazard.
type Hazard struct {
	Code    string  `json:"code"`
	Name    string  `json:"name"`
	Message string  `json:"message"`
	Path    *string `json:"path"`
	Line    *int    `json:"line"`
	Group   *string `json:"group"`
	Threads []int64 `json:"threads"`
}

// ReadRecord reads a dump_json file.
func ReadRecord(path string) (*Record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Record
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if r.Version != 1 || r.Tool != "collvet_guard" {
		return nil, fmt.Errorf("%s: not a collvet_guard record (version %d, tool %q)", path, r.Version, r.Tool)
	}
	return &r, nil
}

// ThreadByID returns the thread with that native id, or nil.
func (r *Record) ThreadByID(id int64) *Thread {
	for i := range r.Threads {
		if r.Threads[i].NativeID == id {
			return &r.Threads[i]
		}
	}
	return nil
}

// HazardCodes returns the distinct hazard codes, in order of first report.
func (r *Record) HazardCodes() []string {
	var out []string
	seen := map[string]bool{}
	for _, h := range r.Hazards {
		if !seen[h.Code] {
			seen[h.Code] = true
			out = append(out, h.Code)
		}
	}
	return out
}

package facts // want package:"communicates"

import (
	"runtime"

	mpi "github.com/sbromberger/gompi"
)

// Trainer holds its communicator in a field: summaries say "the
// receiver's comm", so each caller's instance stays distinct.
type Trainer struct{ comm mpi.Communicator }

func (t *Trainer) Sync(g []float64) { // want Sync:`ops\(all_reduce@0\)`
	t.comm.AllreduceFloat64s(g, g, mpi.OpSum, 0)
}

func Reduce(c mpi.Communicator, g []float64) error { // want Reduce:`ops\(all_reduce@0\)`
	return c.AllreduceFloat64s(g, g, mpi.OpSum, 0)
}

// Twice reaches the collective through a helper of this package.
func Twice(c mpi.Communicator, g []float64) { // want Twice:`ops\(all_reduce@0,all_reduce@0\)`
	_ = Reduce(c, g)
	_ = reduce(c, g)
}

func reduce(c mpi.Communicator, g []float64) error {
	return c.AllreduceFloat64s(g, g, mpi.OpSum, 0)
}

func Spawn(c mpi.Communicator) { // want Spawn:`spawns\(go\[barrier@0\]\)`
	go func() { c.Barrier() }()
}

func World(g []float64) { // want World:`ops\(all_reduce@alloc\)`
	w := mpi.NewCommunicator(nil)
	_ = w.AllreduceFloat64s(g, g, mpi.OpSum, 0)
}

func Init() { mpi.Start(true) } // want Init:`ops\(init@unknown\) level\(multiple\)`

func Pin() { runtime.LockOSThread() } // want Pin:"locks"

// Submit is a pool helper: callers' functions run on new goroutines.
func Submit(f func()) { go f() } // want Submit:`spawnsparam\[0\]`

func Quiet(x int) int { return x + 1 }

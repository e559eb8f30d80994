package pyfront

import "runtime"

// Pre-touching heap memory for batch runs.
//
// After parsing, the analysis is single-threaded (call graph, model) and
// allocates most of its memory as it goes. Every fresh page of heap costs
// a page fault on first write; on the virtual machines CI and laptops
// run, a fault costs several microseconds, and the torch tree takes about
// 125k of them: close to a second of system time on the analysis thread.
// Touching part of that memory up front, on the spare core while the
// files are parsed, and handing it back to the Go heap lets the later
// phases reuse resident pages (which the runtime zeroes in user space,
// far faster than the kernel faults them in). It is the JVM's
// AlwaysPreTouch, sized to the input.
//
// The amount is pretouchPerSourceByte times the source size: the whole
// analysis of the torch tree (15 MB of source) peaks at about 550 MB
// resident, and touching about a third of that up front gave the best
// wall time there (BENCHMARKS.md, "CLI"). The parsing phase it overlaps
// keeps both cores busy, so touching more slows parsing more than it
// saves later: 16 bytes per source byte ran 4% slower than 12, 20 bytes
// 10% slower.
const (
	pretouchPerSourceByte = 12
	pretouchMin           = 32 << 20 // smaller runs gain nothing measurable
	pretouchMax           = 2 << 30
)

// pretouch starts touching the memory an analysis of total bytes of
// source will need; it returns at once.
func pretouch(total int64) {
	n := pretouchSize(total)
	if n == 0 {
		return
	}
	go func() {
		b := make([]byte, n)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		b = nil
		// Free it now, so that the pages go back to the heap's free
		// list before the analysis needs them.
		runtime.GC()
	}()
}

// pretouchSize is how many bytes to touch for total bytes of source (0:
// none).
func pretouchSize(total int64) int64 {
	n := min(total*pretouchPerSourceByte, pretouchMax)
	if n < pretouchMin {
		return 0
	}
	return n
}

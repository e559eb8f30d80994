package pyfront

import (
	"runtime"
	"time"
)

// Pre-touching heap memory for batch runs.
//
// The analysis allocates most of its memory as it goes, much of it in the
// single-threaded phases after parsing (call graph, model). Every fresh
// page of heap costs a page fault on first write; on the virtual machines
// CI and laptops run, a 4 KB fault costs several microseconds, and the
// torch tree takes about 120k of them: close to a second of system time.
// Touching that memory up front and handing it back to the Go heap lets
// the analysis reuse resident pages (which the runtime zeroes in user
// space, far faster than the kernel faults them in). It is the JVM's
// AlwaysPreTouch, sized to the input.
//
// Where the kernel offers transparent huge pages (Linux: "always", or
// "madvise", which hugePages asks for), the buffer is faulted in 2 MB at
// a time: 512 times fewer faults, and touching the analysis's whole peak
// (about 36 bytes per source byte) takes about a tenth of a second, so it
// is done before the parse starts. Where it does not (THP off, no free
// 2 MB blocks, another OS), touching crawls at 4 KB a fault; there it
// stops as soon as it notices, and a goroutine touches up to a third of
// the peak (12 bytes per source byte) alongside the parse, which was the
// best trade measured with 4 KB pages: more competed with the parse for
// the spare core and was slower (BENCHMARKS.md, "CLI").
const (
	pretouchPerSourceByte = 36       // with huge pages
	pretouchSlowPerByte   = 12       // the floor, and the limit at 4 KB a fault
	pretouchMin           = 32 << 20 // smaller runs gain nothing measurable
	pretouchMax           = 2 << 30
	// pretouchFastPerMB: at most this long per MB counts as huge-page
	// speed (measured here: about 0.1 ms/MB with 2 MB pages, 2.5-3 ms/MB
	// with 4 KB ones).
	pretouchFastPerMB = time.Millisecond
)

// pretouch touches the memory an analysis of total bytes of source will
// need. It returns once the touch has gone as far as huge pages make
// cheap (a tenth of a second for the torch tree): the parse that follows
// then allocates from touched pages too, which measured 15% faster than
// touching alongside it. When the touch is slow (4 KB pages), the rest,
// up to the floor, is left to a goroutine that runs alongside the parse,
// as it always did.
func pretouch(total int64) {
	n := pretouchSize(total)
	if n == 0 {
		return
	}
	floor := int(min(n, total*pretouchSlowPerByte))
	b := make([]byte, n)
	hugePages(b)
	done := touch(b, 0, pretouchFastPerMB)
	if done == len(b) || done >= floor {
		release()
		return
	}
	go func() {
		touch(b[done:floor], 0, 0)
		release()
	}()
}

// release frees the touched buffer (no longer referenced by the caller)
// at once, so that its pages go back to the heap's free list before the
// analysis needs them.
func release() { runtime.GC() }

// touch writes one byte per 4 KB page of b and returns how many bytes it
// touched: all of b or, when perMB > 0, up to the first 16 MB step past
// floor bytes at which it has averaged slower than perMB.
func touch(b []byte, floor int, perMB time.Duration) int {
	const step = 16 << 20
	start := time.Now()
	for off := 0; off < len(b); off += step {
		if perMB > 0 && off > floor && time.Since(start) > perMB*time.Duration(off>>20) {
			return off
		}
		end := min(off+step, len(b))
		for i := off; i < end; i += 4096 {
			b[i] = 1
		}
	}
	return len(b)
}

// pretouchSize is the most bytes to touch for total bytes of source (0:
// none).
func pretouchSize(total int64) int64 {
	n := min(total*pretouchPerSourceByte, pretouchMax)
	if n < pretouchMin {
		return 0
	}
	return n
}

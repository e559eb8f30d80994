// Findings through another package's summaries: the wrapper's own calls
// are reported at the calls in this package.
package main

import "ncclwrap"

func main() {
	intra := ncclwrap.New(8, 0)
	inter := ncclwrap.New(2, 0)
	stop := make(chan struct{})
	intra.Background(stop) // want `^CV101 Comm.Background on group intra.comm@.*main.go:8 is issued from a goroutine started at .*ncclwrap.go:34 while the main thread issues Comm.AllReduce on the same group \(.*main.go:13\)` `^CV103 Comm.Background on group intra.comm@.*main.go:8 is issued from a goroutine started at .*ncclwrap.go:34 while the main thread drives another device communicator \(group inter.comm@.*main.go:9`
	for i := 0; i < 10; i++ {
		intra.AllReduce(1024)
		inter.AllReduce(1024)
	}
	close(stop)
}

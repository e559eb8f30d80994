// Command app uses the wrapper from two goroutines at once.
package main

import "example.com/mod/wrap"

func main() {
	intra := wrap.New(8, 0)
	inter := wrap.New(2, 0)
	stop := make(chan struct{})
	defer close(stop)
	intra.Background(stop)
	for i := 0; i < 10; i++ {
		intra.AllReduce(1024)
		inter.AllReduce(1024)
	}
}

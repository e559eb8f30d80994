//go:build cuda

package main

import "testing"

func TestReduce(t *testing.T) {
	go reduceGlobal()
	reduceGlobal()
}

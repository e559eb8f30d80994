// Package main starts its devices' work from files behind a build tag
// and in its tests: only -tags=cuda and -tests show it.
package main

func main() {}

// Package errgroup is a stub of golang.org/x/sync/errgroup for fixtures.
package errgroup

type Group struct{}

func (g *Group) Go(f func() error) { go f() }
func (g *Group) Wait() error       { return nil }

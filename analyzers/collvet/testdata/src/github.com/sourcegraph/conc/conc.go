// Package conc is a stub of github.com/sourcegraph/conc for fixtures.
package conc

type WaitGroup struct{}

func (w *WaitGroup) Go(f func()) { go f() }
func (w *WaitGroup) Wait()       {}

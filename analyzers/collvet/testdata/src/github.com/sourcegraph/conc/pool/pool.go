// Package pool is a stub of github.com/sourcegraph/conc/pool for fixtures.
package pool

type Pool struct{}

func New() *Pool                              { return &Pool{} }
func (p *Pool) WithMaxGoroutines(n int) *Pool { return p }
func (p *Pool) Go(f func())                   { go f() }
func (p *Pool) Wait()                         {}

// Package mpi is a stand-in for cogentcore.org/core/base/mpi, the MPI
// wrapper's import path before it moved to cogentcore.org/lab/base/mpi
// (emer/axon still imports it): the same API, no cgo.
package mpi

type Op int

const OpSum Op = 0

type Comm struct{ comm int }

func Init()                                                    {}
func Finalize()                                                {}
func WorldRank() int                                           { return 0 }
func NewComm(ranks []int) (*Comm, error)                       { return &Comm{}, nil }
func (c *Comm) Barrier() error                                 { return nil }
func (c *Comm) AllReduceF32(op Op, dest, orig []float32) error { return nil }

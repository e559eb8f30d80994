package model

import "testing"

func TestClassHint(t *testing.T) {
	for name, want := range map[string]string{
		"lightning.pytorch.Trainer.save_checkpoint": "trainer",
		"deepspeed.DeepSpeedEngine.save_checkpoint": "engine",
		"accelerate.Accelerator.gather_for_metrics": "accelerator",
		"cupy.cuda.nccl.NcclCommunicator.allReduce": "communicator",
		"mpi4py.MPI.Comm.Allreduce":                 "comm",
		"x":                                         "x",
	} {
		if got := classHint(name); got != want {
			t.Errorf("classHint(%q) = %q, want %q", name, got, want)
		}
	}
}

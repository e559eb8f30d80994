# Only the root checks its arguments and raises; under a plain mpiexec an
# uncaught exception does not end an mpi4py job (the raising process
# waits in MPI_Finalize), so the other ranks wait in the collective
# (hyperspace's hyperdrive).
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()


def hyperdrive(params, sampler=None, n_samples=None):
    if rank == 0:
        spaces = [[p] for p in params]
        if sampler and not n_samples:
            raise ValueError("sampler requires n_samples")
    else:
        spaces = None
    return comm.scatter(spaces, root=0)  # want CV301 "do not raise at .*python -m mpi4py"


def check(params, bad):
    if rank == 0 and bad:
        raise ValueError("bad")
    return comm.bcast(params, root=0)  # want CV301 "an uncaught exception does not end an mpi4py job"

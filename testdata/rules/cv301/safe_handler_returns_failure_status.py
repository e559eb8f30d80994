# The handler returns 1 from main(), and the script exits with
# sys.exit(main()): a rank whose setup raised exits with status 1, and the
# launcher stops the job.
import os
import socket
import sys

from mpi4py import MPI


def setup():
    rank = MPI.COMM_WORLD.Get_rank()
    local_rank = int(os.environ["LOCAL_RANK"])
    addr = socket.gethostname() if rank == 0 else None
    addr = MPI.COMM_WORLD.bcast(addr, root=0)
    return addr, local_rank


def main():
    try:
        setup()
        return 0
    except Exception as e:
        print(f"failed: {e}")
        return 1


if __name__ == "__main__":
    sys.exit(main())

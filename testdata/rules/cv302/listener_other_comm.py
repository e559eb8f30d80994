# The listener thread receives on another communicator: the exchange on
# COMM_WORLD is still two sends waiting for each other.
import threading

from mpi4py import MPI

world = MPI.COMM_WORLD
side = MPI.COMM_SELF


def listener():
    while True:
        side.recv(source=MPI.ANY_SOURCE, tag=1)


threading.Thread(target=listener, daemon=True).start()
peer = world.Get_rank() ^ 1
data = [0.0] * 1000000
world.send(data, dest=peer)  # want CV302 "every rank runs this blocking Comm.send before its blocking Comm.recv"
other = world.recv(source=peer)

# A request to the peer's listener thread (sonar's pull-style exchange):
# every rank runs a thread that probes for requests on the communicator
# and answers them, so the request is received there, not by the peer's
# main thread, which is itself busy sending its own request.
import threading

from mpi4py import MPI


class Node:
    def __init__(self):
        self.comm = MPI.COMM_WORLD
        self.finished = False
        self.t = threading.Thread(target=self.listener)
        self.t.start()

    def listener(self):
        while not self.finished:
            status = MPI.Status()
            if self.comm.Iprobe(source=MPI.ANY_SOURCE, tag=1, status=status):
                dest = status.Get_source()
                self.comm.recv(source=dest, tag=1)
                self.comm.send([0.0] * 1000000, dest=dest, tag=2)

    def fetch(self, node):
        self.comm.send("", dest=node, tag=1)
        return self.comm.recv(source=node, tag=2)


def main():
    n = Node()
    peer = n.comm.Get_rank() ^ 1
    n.fetch(peer)

# A group built with the ProcessGroup constructor (a key-value store
# transport's gloo group) used from a thread and from the main thread.
import threading

from torch.distributed import ProcessGroup

PG = None


def setup(store):
    global PG
    PG = ProcessGroup(store, 0, 2)


def transfer(t):
    PG.send([t], dstRank=1, tag=0).wait()  # want CV101 "ProcessGroup.send on group ProcessGroup@"


def main(store, a, b):
    setup(store)
    threading.Thread(target=transfer, args=(a,)).start()
    transfer(b)

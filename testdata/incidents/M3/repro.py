import threading

import cupy
from cupy.cuda import nccl

NUM_COMMS = 128
N = 1 << 20

rank = int(__import__("os").environ["RANK"])
world = int(__import__("os").environ["WORLD_SIZE"])
uids = load_unique_ids(NUM_COMMS)

cupy.cuda.Device(0).use()
comms = [nccl.NcclCommunicator(world, uids[i], rank) for i in range(NUM_COMMS)]


def stress(i):
    cupy.cuda.Device(0).use()
    stream = cupy.cuda.Stream(non_blocking=True)
    buf = cupy.ones(N, dtype=cupy.float32)
    for _ in range(1000):
        comms[i].allReduce(buf.data.ptr, buf.data.ptr, N, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, stream.ptr)
    stream.synchronize()


threads = [threading.Thread(target=stress, args=(i,)) for i in range(NUM_COMMS)]
for t in threads:
    t.start()
for t in threads:
    t.join()

import cupy
from cupy.cuda import nccl

NUM_COMMS = 128
N = 1 << 20

rank = int(__import__("os").environ["RANK"])
world = int(__import__("os").environ["WORLD_SIZE"])
uids = load_unique_ids(NUM_COMMS)

cupy.cuda.Device(0).use()
comms = [nccl.NcclCommunicator(world, uids[i], rank) for i in range(NUM_COMMS)]
streams = [cupy.cuda.Stream(non_blocking=True) for _ in range(NUM_COMMS)]
bufs = [cupy.ones(N, dtype=cupy.float32) for _ in range(NUM_COMMS)]

for _ in range(1000):
    prev = None
    for i in range(NUM_COMMS):
        if prev is not None:
            streams[i].wait_event(prev)
        comms[i].allReduce(bufs[i].data.ptr, bufs[i].data.ptr, N, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, streams[i].ptr)
        prev = streams[i].record()
streams[-1].synchronize()

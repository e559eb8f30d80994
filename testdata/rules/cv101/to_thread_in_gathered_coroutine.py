# Each transfer runs its blocking gloo send in asyncio.to_thread; gathering
# two transfers runs two pool threads on the same group at once.
import asyncio

import torch.distributed as dist

pg = dist.new_group(backend="gloo")


async def write_from(t):
    def do_send():
        work = pg.send([t], dstRank=1, tag=0)  # want CV101 "ProcessGroup.send on group new_group@"
        work.wait()

    await asyncio.to_thread(do_send)


async def put_many(a, b):
    await asyncio.gather(write_from(a), write_from(b))


# The transfers run their blocking gloo sends in asyncio.to_thread, one
# after the other: one pool thread at a time drives the group.
import asyncio

import torch.distributed as dist

pg = dist.new_group(backend="gloo")


async def write_from(t):
    def do_send():
        pg.send([t], dstRank=1, tag=0).wait()

    await asyncio.to_thread(do_send)


async def put_in_turn(a, b):
    await write_from(a)
    await write_from(b)

import asyncio
from concurrent.futures import ThreadPoolExecutor

import torch.distributed as dist


def task(t):
    dist.all_reduce(t)  # context: pool@S, pool@M*, pool@R


def quick(t):
    dist.barrier()  # context: pool@Q


async def to_thread_user(t):
    await asyncio.to_thread(task, t)  # spawn: R


def run(t):
    with ThreadPoolExecutor(max_workers=4) as ex:
        ex.submit(task, t)  # spawn: S
        list(ex.map(task, [t, t]))  # spawn: M
        ex.submit(quick, t).result()  # spawn: Q joined


run(None)

# A single process that plans sharding on a "fake" process group (a
# FakeStore: no peers, every collective returns at once) and destroys it in
# finally: no rank can be left waiting.
import torch
from torch.testing._internal.distributed.fake_pg import FakeStore


def plan(world_size, work):
    torch.distributed.init_process_group("fake", store=FakeStore(), rank=0, world_size=world_size)
    try:
        t = work()
        torch.distributed.all_reduce(t)
        return t
    finally:
        if torch.distributed.is_initialized():
            torch.distributed.destroy_process_group()


def plan_keyword(world_size, work):
    torch.distributed.init_process_group(backend="fake", store=FakeStore(), rank=0, world_size=world_size)
    try:
        torch.distributed.all_reduce(work())
    except RuntimeError:
        torch.distributed.destroy_process_group()
        raise


def setup_fake_process_group(world_size):
    torch.distributed.init_process_group("fake", store=FakeStore(), rank=0, world_size=world_size)


def plan_through_helper(world_size, work):
    try:
        setup_fake_process_group(world_size)
        torch.distributed.all_reduce(work())
    finally:
        torch.distributed.destroy_process_group()

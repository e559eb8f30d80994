# The rank read from the environment under a key that is no literal at
# the call: a conditional of two rank names, or a local holding one
# (AQLM's helpers).
import os

import torch.distributed as dist


def save_cond_key(local: bool):
    rank = int(os.environ.get("LOCAL_RANK" if local else "RANK", 0))
    if rank == 0:
        dist.barrier()  # want CV301 "barrier on the default group \(WORLD\) runs only when `rank == 0` holds"


def save_const_key():
    key = "LOCAL_RANK"
    rank = int(os.environ[key])
    if rank == 0:
        dist.barrier()  # want CV301 "runs only when `rank == 0` holds"


def not_a_rank(name):
    key = "MASTER_PORT" if name else "MASTER_ADDR"
    port = os.environ.get(key, "0")
    if port == "0":
        dist.barrier()

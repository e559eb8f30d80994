# A helper collects this host's checkpoints with append in a loop over a
# glob and the caller leaves early when it sees few: a host that sees
# fewer (a node-local directory, rank 0 deleting them meanwhile) skips
# the barrier the others wait in (Merak's rotate_checkpoints).
import shutil
from pathlib import Path

import torch.distributed as dist


def _sorted_checkpoints(output_dir):
    found = []
    for x in Path(output_dir).glob("iter_*"):
        found.append(x)
    return sorted(found)


def rotate_checkpoints(output_dir, limit):
    ckpts = _sorted_checkpoints(output_dir)
    if len(ckpts) <= limit:
        return
    if dist.get_rank() == 0:
        for c in ckpts[: len(ckpts) - limit]:
            shutil.rmtree(c)
    dist.barrier()  # want CV301 "barrier on the default group \(WORLD\) runs only on the ranks that do not leave early"


def count_inline(output_dir, t):
    names = []
    for x in Path(output_dir).glob("*.pt"):
        names.append(x.name)
    if names:
        dist.all_reduce(t)  # want CV301 "all_reduce .*file system check"
    return t

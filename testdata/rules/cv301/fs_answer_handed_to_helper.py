# This host's file system answer handed to a helper that branches on it
# around a collective (llm-baselines' resume, narrowed): the helper's
# test is the check itself.
import os

import torch.distributed as dist


def maybe_load(t, found):
    if found:
        dist.all_reduce(t)  # want CV301 "runs only when `found` holds, which depends on a file system check"


def resume_probe(t, path):
    maybe_load(t, os.path.exists(path))


def maybe_sync(t, flag):
    if flag:
        dist.barrier()  # want CV301 "runs only when `flag` holds, which depends on a file system check"


def resume_local(t, path):
    have = os.path.isfile(path)
    maybe_sync(t, have)

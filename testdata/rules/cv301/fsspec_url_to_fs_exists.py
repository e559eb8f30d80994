# A file system taken out of fsspec's url_to_fs, asked whether a
# checkpoint exists, directly or through a helper (mdlm's
# fsspec_exists): each host answers for itself.
import fsspec
import torch.distributed as dist


def fsspec_exists(filename):
    fs, _ = fsspec.core.url_to_fs(filename)
    return fs.exists(filename)


def resume_through_helper(ckpt):
    if fsspec_exists(ckpt):
        dist.barrier()  # want CV301 "file system check"


def resume_inline(ckpt):
    fs, _ = fsspec.core.url_to_fs(ckpt)
    if fs.exists(ckpt):
        dist.barrier()  # want CV301 "file system check"

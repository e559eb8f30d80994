# The same check made on rank 0 and broadcast before anyone branches on
# it, and an exists() on an object that is not a file system.
import fsspec
import torch.distributed as dist


def resume(ckpt):
    fs, _ = fsspec.core.url_to_fs(ckpt)
    found = [fs.exists(ckpt)]
    dist.broadcast_object_list(found, src=0)
    if found[0]:
        dist.barrier()


def registry_has(registry, name):
    table, _ = registry.lookup(name)
    if table.exists(name):
        dist.barrier()

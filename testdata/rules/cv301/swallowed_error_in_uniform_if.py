# The try whose handler swallows the error sits inside an if that every
# rank answers alike: the failed rank goes on to the barrier after the
# if while the others are still in the load's collectives.
import torch.distributed as dist
from torch.distributed.checkpoint import FileSystemReader, load_sharded_optimizer_state_dict


def load_optimizer_state(model, optimizer, load_directory, world_size):
    if world_size > 1:
        try:
            reader = FileSystemReader(load_directory)
            loaded = load_sharded_optimizer_state_dict(  # want CV301 "skipped on a rank whose work before it raises"
                model.state_dict(), optimizer_key="optimizer", storage_reader=reader
            )
            optimizer.load_state_dict(loaded["optimizer"])
        except Exception as e:
            print(f"failed to load optimizer state: {e}; continuing")
    dist.barrier()


def reraised(model, optimizer, load_directory, world_size):
    if world_size > 1:
        try:
            reader = FileSystemReader(load_directory)
            loaded = load_sharded_optimizer_state_dict(
                model.state_dict(), optimizer_key="optimizer", storage_reader=reader
            )
            optimizer.load_state_dict(loaded["optimizer"])
        except Exception:
            raise
    dist.barrier()

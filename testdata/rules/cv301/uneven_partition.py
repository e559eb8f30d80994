# Without even_divisible the shares differ by one item when the data does
# not divide evenly, and so do the validation intervals computed from
# them: some ranks reach the barrier in an epoch where the others do not.
import torch.distributed as dist
from monai.data import DataLoader, partition_dataset


def train(files, iterations, iterations_per_validation):
    world_size = dist.get_world_size()
    val_files = partition_dataset(data=files, num_partitions=world_size, even_divisible=False)[dist.get_rank()]
    loader = DataLoader(val_files, batch_size=1)
    epochs_per_validation = max(iterations_per_validation // len(loader), 1)
    for epoch in range(iterations // iterations_per_validation):
        if (epoch + 1) % epochs_per_validation == 0:
            dist.barrier()  # want CV301 "runs only when"


def strided(files, steps):
    shard = files[dist.get_rank() :: dist.get_world_size()]
    for step in range(steps):
        if step < len(shard):
            dist.barrier()  # want CV301 "runs only when"

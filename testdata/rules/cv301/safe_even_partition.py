# MONAI's partition_dataset with even_divisible=True pads the shares to
# one length: the epochs and the validation interval computed from this
# rank's share are the same on every rank (MONAI's auto3dseg templates).
import torch.distributed as dist
from monai.data import DataLoader, partition_dataset


def train(files, iterations, iterations_per_validation):
    world_size = dist.get_world_size()
    train_files = partition_dataset(data=files, shuffle=True, num_partitions=world_size, even_divisible=True)[
        dist.get_rank()
    ]
    train_loader = DataLoader(train_files, batch_size=2)
    epochs_per_validation = max(iterations_per_validation // len(train_loader), 1)
    for epoch in range(iterations // iterations_per_validation):
        if (epoch + 1) % epochs_per_validation == 0:
            dist.barrier()

# A third script starts its workers with mp.spawn: its DDP around a
# model with buffers runs in those workers' processes only.
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torchvision.models import resnet50


def worker(gpu, world):
    dist.init_process_group("nccl", rank=gpu, world_size=world)
    torch.cuda.set_device(gpu)
    model = torch.nn.parallel.DistributedDataParallel(resnet50().cuda(), device_ids=[gpu])
    model(torch.randn(2, 3, 224, 224).cuda()).sum().backward()


def main():
    mp.spawn(worker, nprocs=torch.cuda.device_count(), args=(torch.cuda.device_count(),))


if __name__ == "__main__":
    main()

# The job meets on localhost (mp.spawn workers, MASTER_ADDR='localhost'),
# so every rank runs on this machine and asks one file system: the
# checkpoint glob is answered alike on every rank (voxceleb_trainer).
import glob
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def worker(gpu, ngpus, save_path, max_epoch):
    os.environ["MASTER_ADDR"] = "localhost"
    os.environ["MASTER_PORT"] = "8888"
    dist.init_process_group(backend="nccl", world_size=ngpus, rank=gpu)
    torch.cuda.set_device(gpu)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(8, 8).cuda(gpu), device_ids=[gpu])
    it = 1
    files = sorted(glob.glob("%s/model0*.model" % save_path))
    if len(files) >= 1:
        it = int(os.path.splitext(os.path.basename(files[-1]))[0][5:]) + 1
    for it in range(it, max_epoch + 1):
        model(torch.randn(4, 8, device="cuda")).sum().backward()
        if os.path.exists(save_path + "/stop"):
            dist.barrier()


if __name__ == "__main__":
    n = torch.cuda.device_count()
    mp.spawn(worker, nprocs=n, args=(n, "/tmp/exp", 10))

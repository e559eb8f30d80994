# The first K ranks train on a group of their own while the rank after
# them serves data: the test `rank < K` picks out exactly that group's
# members (TGL's distributed trainer).
import torch
import torch.distributed as dist


def run(args, model):
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    nccl_group = dist.new_group(ranks=list(range(args.num_gpus)), backend="nccl")
    if rank < args.num_gpus:
        ddp = torch.nn.parallel.DistributedDataParallel(model.cuda(), process_group=nccl_group)
        loss = ddp(torch.randn(2, 4, device="cuda")).sum()
        loss.backward()
        dist.all_reduce(loss.detach(), group=nccl_group)
    return model

# The device is picked two calls below the group's creation, after a
# helper all-reduces to count the ranks on this node (mlbench's
# initialize_backends → config_pytorch → assigned_gpu_id): that
# all-reduce runs on device 0 on every rank.
import torch
import torch.distributed as dist


def ranks_on_node(rank):
    t = torch.ones(1).cuda()
    dist.all_reduce(t)
    return [rank]


def assign_gpu(rank):
    ranks = ranks_on_node(rank)
    torch.cuda.set_device(ranks.index(rank))


def config(rank):
    assign_gpu(rank)


def setup(rank):
    dist.init_process_group("nccl")  # want CV403 "all_reduce at .* runs before it, on device 0"
    config(rank)

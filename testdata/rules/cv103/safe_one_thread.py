import torch.distributed as dist


def main(x, y):
    intra = dist.new_group()
    inter = dist.new_group()
    dist.reduce_scatter_tensor(y, x, group=intra)
    dist.all_reduce(y, group=inter)

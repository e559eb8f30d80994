# The rank kept in an options dict (`opt['rank'], opt['world_size'] =
# get_dist_info()`, BasicSR's, KAIR's and NAFNet's idiom) and tested as
# `self.opt['rank'] == 0` is the rank, as `args.rank` is.
import torch.distributed as dist


def get_dist_info():
    if dist.is_available() and dist.is_initialized():
        return dist.get_rank(), dist.get_world_size()
    return 0, 1


class SRModel:
    def __init__(self, opt):
        self.opt = opt

    def dist_validation(self, t):
        if self.opt["rank"] == 0:
            dist.all_reduce(t)  # want CV301 "runs only when `self.opt\[.rank.\] == 0` holds"


def main(t):
    opt = {}
    opt["rank"], opt["world_size"] = get_dist_info()
    SRModel(opt).dist_validation(t)
    if opt["local_rank"] != 0:
        dist.barrier()  # want CV301 "barrier"

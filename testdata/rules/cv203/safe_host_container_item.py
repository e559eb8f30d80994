# fairscale gossip's config dict: storing a dict or a string at a key
# writes a host container, not device memory, so the side stream that
# later reads the config has nothing to wait for.
import torch
import torch.distributed as dist


def worker(cfg, buf, stream):
    cfg["peers"] = {"n": 2}
    cfg["name"] = "gossip"
    with torch.cuda.stream(stream):
        use(buf, cfg)


def use(buf, cfg):
    if cfg["peers"]["n"] > 1:
        dist.all_reduce(buf)


class Gossiper:
    def __init__(self, buf):
        self.buf = buf


def gossip_target(params_by_dtype, config, buf, stream):
    # fairscale's _gossip_target: a dict of the program's objects, filed in
    # another dict, then looked up on the side stream.
    gossipers = {}
    for dtype in params_by_dtype:
        gossipers[dtype] = Gossiper(params_by_dtype[dtype])
    config["gossipers"] = gossipers
    with torch.cuda.stream(stream):
        for dtype in params_by_dtype:
            if gossipers[dtype] is not None and config["verbose"]:
                dist.all_reduce(buf)

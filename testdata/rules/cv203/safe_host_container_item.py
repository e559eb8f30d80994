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

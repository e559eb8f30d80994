# Both arms meet on this host: the launcher's arm sets localhost too, so
# every rank of the job asks one file system.
import os

import torch.distributed as dist


def init(args):
    if "RANK" in os.environ:
        os.environ["MASTER_ADDR"] = "localhost"
    else:
        os.environ["MASTER_ADDR"] = "127.0.0.1"
    dist.init_process_group("gloo")


def main(args):
    init(args)
    if os.path.isfile(args.ckpt):
        dist.barrier()

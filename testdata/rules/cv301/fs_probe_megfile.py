# megfile's smart_* functions (cvpods' checkpointer) ask the host that
# runs them for local paths: a host that sees no checkpoint starts from
# step 0 while the others resume. Building a path asks nothing.
import os

import megfile
import torch
import torch.distributed as dist


def main(out):
    dist.init_process_group("nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    start = 0
    if megfile.smart_exists(out + "/last_checkpoint"):
        start = torch.load(out + "/model_last.pth")["iteration"] + 1
    for it in range(start, 1000):
        dist.all_reduce(torch.ones(1, device="cuda"))  # want CV301 "file system check"
    for name in megfile.smart_listdir(out):
        dist.barrier()  # want CV301 "whose bounds depend on a file system check of this host"
    if megfile.smart_path_join(out, "x"):
        dist.barrier()

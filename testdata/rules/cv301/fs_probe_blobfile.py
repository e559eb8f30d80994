# guided-diffusion's derivatives ask blobfile whether a checkpoint is
# there (MDT's _load_optimizer_state): each host asks its own view, and a
# host that sees none skips the broadcast in the load.
import blobfile as bf
import torch
import torch.distributed as dist


def load_state_dict(path):
    t = torch.zeros(1)
    dist.broadcast(t, 0)
    return t


def load_optimizer_state(opt, ckpt_dir, step):
    opt_checkpoint = bf.join(ckpt_dir, f"opt{step:06}.pt")
    if bf.exists(opt_checkpoint):
        opt.load_state_dict(load_state_dict(opt_checkpoint))  # want CV301 "a file system check that each rank makes on its own host"


def latest(ckpt_dir):
    for name in sorted(bf.listdir(ckpt_dir)):
        dist.barrier()  # want CV301 "whose bounds depend on a file system check of this host"
    # bf.join only builds a path: nothing is asked of the host.
    if bf.join(ckpt_dir, "x"):
        dist.barrier()

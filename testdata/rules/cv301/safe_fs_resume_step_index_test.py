# The resume step is agreed on before it numbers the loop; and a file
# whose path every rank is given alike (no look at the host's disk) is
# read alike.
import torch
import torch.distributed as dist


def main(args, loader):
    with open(args.step_file) as f:
        resume_step = int(f.read().strip())
    for step, x in enumerate(loader, start=resume_step):
        if (step + 1) % args.log_every == 0:
            dist.all_reduce(torch.ones(1, device="cuda"))


def agreed(args, loader, found_step):
    box = [found_step]
    dist.broadcast_object_list(box, src=0)
    for step, x in enumerate(loader, start=box[0]):
        if (step + 1) % args.log_every == 0:
            dist.all_reduce(torch.ones(1, device="cuda"))

import torch.distributed as dist


def finalize(stats):
    if dist.get_rank() != 0:
        return
    dist.all_reduce(stats)  # want CV301 "do not leave early"


def exit_quietly():
    # raise SystemExit(0) is sys.exit(0): a clean exit, not a failure the
    # launcher tears the job down for.
    if dist.get_rank() != 0:
        raise SystemExit(0)
    dist.barrier()  # want CV301 "do not leave early"

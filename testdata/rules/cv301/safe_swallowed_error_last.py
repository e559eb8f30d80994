# A best-effort report at the very end of the job: nothing follows for a
# skipped reduction to pair with.
import torch
import torch.distributed as dist


def report(total):
    try:
        t = torch.tensor([total]).cuda()
        dist.all_reduce(t)
        print(t.item())
    except Exception as e:
        print(f"report failed: {e}")


def main(total):
    report(total)

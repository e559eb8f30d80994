# Rank 0 alone loops on a broadcast it sends: with no follower loop
# anywhere, the other ranks never receive (micro-vllm's timed rounds).
import torch
import torch.distributed as dist


def main():
    dist.init_process_group("nccl")
    buf = torch.zeros(1, device="cuda")
    if dist.get_rank() == 0:
        while True:
            dist.broadcast(buf, src=0)  # want CV301 "runs only when `dist.get_rank\(\) == 0` holds"
            if buf.sum() > 0:
                break

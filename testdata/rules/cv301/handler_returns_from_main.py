# The main the script ends with wraps rank 0's weight download and the
# broadcast of its result in one try whose handler returns (KLi447's
# tensor-parallel experiment): when the download fails, rank 0 returns
# and its process exits with status 0 while the other ranks wait in the
# broadcast.
import torch
import torch.distributed as dist


def load_weights():
    return torch.load("weights.pt")


def main():
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    try:
        sd = load_weights() if rank == 0 else None
        box = [sd]
        dist.broadcast_object_list(box, src=0)  # want CV301 "ends the process with status 0"
    except Exception as e:
        print(f"load failed: {e}")
        return
    dist.barrier()


if __name__ == "__main__":
    main()

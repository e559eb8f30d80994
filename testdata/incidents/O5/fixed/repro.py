import torch
import torch.distributed as dist


def main():
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    torch.cuda.set_device(rank)
    peer = 1 - rank
    for i in range(100):
        a = torch.full((1 << 22,), float(i), device="cuda")
        b = torch.empty(1 << 22, device="cuda")
        reqs = dist.batch_isend_irecv([
            dist.P2POp(dist.isend, a, peer),
            dist.P2POp(dist.irecv, b, peer),
        ])
        for r in reqs:
            r.wait()


if __name__ == "__main__":
    main()

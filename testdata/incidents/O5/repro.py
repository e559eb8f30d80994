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
        s = dist.isend(a, dst=peer)
        s.wait()
        r = dist.irecv(b, src=peer)
        r.wait()


if __name__ == "__main__":
    main()

import torch
import torch.distributed as dist


def relay(rank, world):
    nxt = (rank + 1) % world
    prv = (rank - 1) % world
    send_buf = torch.randn(32 << 20, device="cuda")
    recv_buf = torch.empty(32 << 20, device="cuda")
    s = dist.isend(send_buf, dst=nxt)
    r = dist.irecv(recv_buf, src=prv)
    s.wait()
    r.wait()
    return recv_buf


def main():
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    torch.cuda.set_device(rank)
    relay(rank, dist.get_world_size())


if __name__ == "__main__":
    main()

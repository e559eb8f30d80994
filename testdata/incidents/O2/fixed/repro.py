import torch
import torch.distributed as dist


def make_pair_groups(world):
    groups = {}
    for a in range(world):
        b = (a + 1) % world
        key = (min(a, b), max(a, b))
        if key not in groups:
            groups[key] = dist.new_group(list(key))
    return groups


def relay(rank, world, groups):
    nxt = (rank + 1) % world
    prv = (rank - 1) % world
    send_buf = torch.randn(32 << 20, device="cuda")
    recv_buf = torch.empty(32 << 20, device="cuda")
    s = dist.isend(send_buf, dst=nxt, group=groups[(min(rank, nxt), max(rank, nxt))])
    r = dist.irecv(recv_buf, src=prv, group=groups[(min(rank, prv), max(rank, prv))])
    s.wait()
    r.wait()
    return recv_buf


def main():
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    torch.cuda.set_device(rank)
    world = dist.get_world_size()
    groups = make_pair_groups(world)
    relay(rank, world, groups)


if __name__ == "__main__":
    main()

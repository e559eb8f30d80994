import torch
import torch.distributed as dist


def step(big):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    a = big + 1
    with torch.cuda.stream(side):
        w = dist.all_reduce(a, async_op=True)
        w.wait()
        del w
        a = None
    b = big + 1
    return b


def main():
    dist.init_process_group("nccl")
    big = torch.randn(64 << 20, device="cuda")
    for _ in range(100):
        b = step(big)
        assert torch.equal(b, big + 1)


if __name__ == "__main__":
    main()

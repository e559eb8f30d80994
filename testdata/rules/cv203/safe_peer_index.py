# A peer index computed from the rank, the loop counter and the world size
# is a host int: the side stream reads no tensor the current stream wrote.
import torch


def gather_from_peers(out, rank, world, peer_bufs):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    for step in range(1, world):
        remote = (rank - step) % world
        with side:
            out[remote].copy_(peer_bufs[remote])
    torch.cuda.current_stream().wait_stream(side)

# A copy to the rank's device with non_blocking=True may still be running
# on the current stream when a side stream reads its result; so is a
# value computed on the device from a blocking upload.
import torch


def bucketize(rank, pinned):
    border = pinned.to(rank, non_blocking=True)
    scaled = torch.tensor([1, 2, 3]).to(rank) * 2
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        y = torch.bucketize(torch.rand(8, device="cuda"), border)  # want CV203 "\"border\" is written on the current stream"
        z = torch.bucketize(torch.rand(8, device="cuda"), scaled)  # want CV203 "\"scaled\" is written on the current stream"
    torch.cuda.current_stream().wait_stream(side)
    return y, z

# A blocking copy of host data to the device (no non_blocking=True) has
# finished when it returns: PyTorch synchronises the copy's stream, so a
# side stream may read the tensor at once (apex's data prefetcher keeps its
# mean and std this way). The same holds for torch.tensor(data,
# device="cuda"), and for a torch.device, which holds no memory at all.
import torch


class Prefetcher:
    def __init__(self, loader):
        self.loader = iter(loader)
        self.stream = torch.cuda.Stream()
        self.device = torch.device("cuda")
        self.mean = torch.tensor([0.485 * 255, 0.456 * 255, 0.406 * 255]).cuda().view(1, 3, 1, 1)
        self.std = torch.tensor([0.229 * 255, 0.224 * 255, 0.225 * 255], device="cuda").view(1, 3, 1, 1)
        self.preload()

    def preload(self):
        self.next_input = next(self.loader)
        with torch.cuda.stream(self.stream):
            self.next_input = self.next_input.to(device=self.device, non_blocking=True)
            self.next_input = self.next_input.float().sub_(self.mean).div_(self.std)

    def next(self):
        torch.cuda.current_stream().wait_stream(self.stream)
        x = self.next_input
        x.record_stream(torch.cuda.current_stream())
        self.preload()
        return x


def normalise(x):
    side = torch.cuda.Stream()
    scale = torch.from_numpy(x.new_ones(3).cpu().numpy()).to("cuda")
    with torch.cuda.stream(side):
        y = x.cuda(non_blocking=True) * scale
    torch.cuda.current_stream().wait_stream(side)
    return y


class EmbeddingReader:
    # A staging buffer pinned with .pin_memory() is host memory, and a
    # tensor made on the host by torch.zeros and moved with a blocking
    # .cuda() has nothing pending: a side stream may use both at once
    # (SMORE's embedding reader).
    def __init__(self, embed):
        self.embed = embed
        self.stream = torch.cuda.Stream()

    def read(self, indices, n, d):
        buf = torch.zeros(n, d).pin_memory()
        out = torch.zeros(n, d).cuda()
        with torch.cuda.stream(self.stream):
            torch.index_select(self.embed, 0, indices, out=buf)
            out.copy_(buf, non_blocking=True)
        torch.cuda.current_stream().wait_stream(self.stream)
        return out


class Offloader:
    # torch.empty_like reads its argument's shape, dtype and device, not
    # its memory: made on a side stream while the parameter's kernels may
    # still run, it reads nothing they write (NVIDIA's interleaved
    # offload example).
    def __init__(self, block):
        self.block = block
        self.stream = torch.cuda.Stream()
        self.params = []

    def initialize(self, device):
        self.block = self.block.to(device=device)
        for p in self.block.parameters():
            with torch.cuda.stream(self.stream):
                cpu_p = torch.empty_like(p, device="cpu", pin_memory=True)
            self.params.append((p, cpu_p))
        torch.cuda.current_stream().wait_stream(self.stream)


def bucketize(rank, sizes, names):
    # .to(rank) names the device by its index: a blocking copy like
    # .cuda(); so is .to(torch.device("cuda", rank)). A file name built
    # with a string's methods is a Python string (RAP's stream pipeline).
    border = torch.tensor([1, 2, 3]).to(rank)
    bounds = torch.tensor([4, 5]).to(torch.device("cuda", rank))
    path = "/data/" + "GPU_{}.parquet".format(rank)
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        y = torch.bucketize(torch.rand(8, device="cuda"), border)
        z = torch.bucketize(torch.rand(8, device="cuda"), bounds)
        torch.save(z, path)
    torch.cuda.current_stream().wait_stream(side)
    return y, z

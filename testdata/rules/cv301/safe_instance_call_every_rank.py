# The pipeline object is called on every rank; rank 0 only prints.
import torch.distributed as dist


class Pipeline:
    def __call__(self, x):
        dist.all_reduce(x)
        return x


def main(x):
    pipe = Pipeline()
    out = pipe(x)
    if dist.get_rank() == 0:
        print(out)

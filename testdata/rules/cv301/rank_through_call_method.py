# A rank handed to an instance's __call__ and returned by it: the result
# is the rank, as it is through an ordinary method.
import torch.distributed as dist


class Picker:
    def __call__(self, v):
        return v


def main():
    p = Picker()
    r = dist.get_rank()
    x = p(r)
    if x == 0:
        dist.barrier()  # want CV301 "barrier on the default group \(WORLD\) runs only when `x == 0` holds"

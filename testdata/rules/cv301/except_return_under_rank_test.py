# An except handler that returns, inside the target rank's arm: when the
# fetch fails there, the target rank leaves and the others wait in the
# broadcast (LightX2V's audio reader).
import torch
import torch.distributed as dist


class Reader:
    def __init__(self, source, target_rank=0):
        self.rank = dist.get_rank()
        self.target_rank = target_rank
        self.source = source
        self.flag = torch.zeros(1, dtype=torch.int32, device="cuda")

    def get_segment(self):
        data = None
        if self.rank == self.target_rank:
            try:
                data = self.source.fetch()  # may raise on the target rank only
            except Exception:
                return None  # target rank skips the broadcasts below: peers hang
        self.flag.fill_(0 if data is None else 1)
        dist.broadcast(self.flag, src=self.target_rank)  # want CV301 "broadcast on the default group \(WORLD\) runs only on the ranks that do not leave early"
        return data

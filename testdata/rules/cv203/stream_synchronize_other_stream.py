# stream.synchronize() makes the host wait for that stream alone. A
# clone on the current stream is not ordered by stream0's synchronize,
# and stream1 reads it while it may still run (a two-stage inference
# engine's hand-over); the producer stream's own synchronize does order
# its work.
import torch


class Engine:
    def __init__(self, stage0, stage1):
        self.stream0 = torch.cuda.Stream()
        self.stream1 = torch.cuda.Stream()
        self.stage0 = stage0
        self.stage1 = stage1

    def run(self, act):
        act_dst = act.clone()
        self.stream0.synchronize()
        with torch.cuda.stream(self.stream1):
            logits = self.stage1(act_dst)  # want CV203 "act_dst"
        self.stream1.synchronize()
        return logits

    def run_ordered(self, x):
        with torch.cuda.stream(self.stream0):
            act = self.stage0(x)
        self.stream0.synchronize()
        with torch.cuda.stream(self.stream1):
            logits = self.stage1(act)
        self.stream1.synchronize()
        return logits

    def run_device_wide(self, act):
        act_dst = act.clone()
        torch.cuda.synchronize()
        with torch.cuda.stream(self.stream1):
            logits = self.stage1(act_dst)
        self.stream1.synchronize()
        return logits

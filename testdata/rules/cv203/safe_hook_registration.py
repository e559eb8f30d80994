# Attaching a hook to a tensor made on a side stream reads none of it.
import torch


class Wrapper(torch.nn.Module):
    def __init__(self, module):
        super().__init__()
        self.module = module
        self.side = torch.cuda.Stream()

    def _hook(self, grad):
        return grad

    def forward(self, x):
        with torch.cuda.stream(self.side):
            out = self.module(x)
        out.register_hook(self._hook)
        torch.cuda.current_stream().wait_stream(self.side)
        return out

# A pipeline stage keeps the default stream in an attribute: work entered
# on it runs on the stream that was current anyway. The class is made by
# another module and run() is called by a framework, so no value reaches
# self there; the class's own store says which stream it is.
import torch


class Stage:
    def __init__(self, model, device):
        self.model = model
        self.comp = torch.cuda.default_stream(device=device)
        self.side = torch.cuda.Stream(device=device)

    def run(self, x):
        y = x * 2
        with torch.cuda.stream(self.comp):
            out = self.model(y)
        return out

    def run_on_side(self, x):
        y = x * 2
        with torch.cuda.stream(self.side):
            out = self.model(y)  # want CV203 "\"y\" is written on the current stream .* read here on self.side"
        return out  # want CV203 "\"out\" is written on self.side"

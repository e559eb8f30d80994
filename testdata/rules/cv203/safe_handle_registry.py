# DeepSpeed ZeRO-3's parameter coordinator: the all-gather's handle, made
# under the all-gather stream, is filed by parameter; other methods take it
# out and wait it. Filing it stores a reference and reads no tensor.
import torch


class Coordinator:
    def __init__(self, registry):
        self.stream = torch.cuda.Stream()
        self.inflight = registry

    def fetch(self, params):
        with torch.cuda.stream(self.stream):
            handle = params[0].all_gather_coalesced(params)
        for param in params:
            self.inflight[param] = handle

    def wait_for(self, param):
        if param in self.inflight:
            self.inflight.pop(param).wait()

    def drain(self):
        for _, handle in self.inflight.items():
            handle.wait()
        self.inflight.clear()

# An extension's event object (extlib.CudaEvent) is no tensor: recorded
# on the current stream and handed to work on a side stream, it is how
# that work waits (SMORE's embedding writer); nothing of it is written
# on one stream and read on another.
import torch
import extlib_cuda as extlib


class EmbeddingWriter:
    def __init__(self, embed, gpu_id):
        self.embed = embed
        self.gpu_id = gpu_id
        self.pool = extlib.ThreadPool(1)
        self.stream = torch.cuda.Stream(gpu_id)

    def async_write(self, indices, values):
        src_event = extlib.CudaEvent(self.gpu_id)
        src_event.record()
        with torch.cuda.stream(self.stream):
            extlib.async_write(self.pool, indices, self.embed, values, src_event)

# A helper hands back the buffers its dictionary keeps, or a pinned host
# buffer and a finished upload it makes and files there (SMORE's
# embedding reader): unpacking its result names objects made before the
# call, with nothing pending on the current stream. So does a look-up
# helper that returns one of the dictionary's items.
import torch
import extlib_cuda as extlib


class KeptBuffers:
    def __init__(self, embed, dim, gpu_id):
        self.embed = embed
        self.dim = dim
        self.device = "cuda:{}".format(gpu_id)
        self.pool = extlib.ThreadPool(1)
        self.stream = torch.cuda.Stream(gpu_id)
        self.read_buf = {}

    def get_or_create_buf(self, name, n):
        if name in self.read_buf and self.read_buf[name][0].shape[0] >= n:
            return self.read_buf[name]
        buf = torch.zeros(n, self.dim).pin_memory()
        out = torch.zeros(n, self.dim).cuda(self.device)
        self.read_buf[name] = (buf, out)
        return (buf, out)

    def get_buf(self, name):
        return self.read_buf[name]

    def async_read(self, indices, name):
        buf, out = self.get_or_create_buf(name, indices.shape[0])
        with torch.cuda.stream(self.stream):
            extlib.async_read(self.pool, indices, self.embed, buf, out)

    def async_read_again(self, indices, name):
        buf, out = self.get_buf(name)
        with torch.cuda.stream(self.stream):
            extlib.async_read(self.pool, indices, self.embed, buf, out)


class KeptBuffersByName:
    # The dictionary is handed in (SMORE's EmbeddingRW passes its
    # read_buf or write_buf), and a keyword picks the arm.
    def __init__(self, embed, dim, gpu_id):
        self.embed = embed
        self.dim = dim
        self.device = "cuda:{}".format(gpu_id)
        self.pool = extlib.ThreadPool(1)
        self.stream = torch.cuda.Stream(gpu_id)
        self.write_buf = {}

    def get_or_create_buf(self, name, n, buf_dict, gpu_buf=True):
        if name in buf_dict and buf_dict[name][0].shape[0] >= n:
            return buf_dict[name]
        buf = torch.zeros(n, self.dim).pin_memory()
        if gpu_buf:
            out = torch.zeros(n, self.dim).cuda(self.device)
        else:
            out = None
        buf_dict[name] = (buf, out)
        return (buf, out)

    def async_write(self, indices, values, name):
        buf, _ = self.get_or_create_buf(name, indices.shape[0], self.write_buf, gpu_buf=False)
        with torch.cuda.stream(self.stream):
            extlib.async_write(self.pool, indices, self.embed, buf, values)

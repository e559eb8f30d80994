# An extension's asynchronous write returns a job object to wait on, not a
# tensor: returning it (or filing it) after the stream block reads no
# device memory (SMORE's EmbeddingRW.async_write; callers call
# job.sync()).
import torch
import extlib_cuda as extlib


class EmbeddingWriter:
    def __init__(self, embed, gpu_id):
        self.embed = embed
        self.gpu_id = gpu_id
        self.pool = extlib.ThreadPool(1)
        self.stream = torch.cuda.Stream(gpu_id)
        self.last_write_jobs = {}

    def async_write(self, indices, values, name):
        src_event = extlib.CudaEvent(self.gpu_id)
        src_event.record()
        if name in self.last_write_jobs:
            self.last_write_jobs[name].sync()
        with torch.cuda.stream(self.stream):
            job_handle = extlib.async_write(self.pool, indices, self.embed, values, src_event)
        self.last_write_jobs[name] = job_handle
        return job_handle

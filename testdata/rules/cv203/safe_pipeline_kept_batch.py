# torchrec's TrainPipelineSparseDist shape: the next batch is copied on
# the pipeline's memcpy stream and kept on the instance; the step that
# reads it first makes its stream wait for that stream, through a helper
# that waits on the current stream (the stream of the caller's with
# block). Both the helper's wait and the kept batch are ordered.
import torch
import torch.distributed as dist


def wait_for_batch(batch, stream):
    torch.cuda.current_stream().wait_stream(stream)
    batch.record_stream(torch.cuda.current_stream())


class Pipeline:
    def __init__(self):
        self._memcpy_stream = torch.cuda.Stream()
        self._data_dist_stream = torch.cuda.Stream()
        self._batch_ip1 = None

    def connect(self, it):
        with torch.cuda.stream(self._memcpy_stream):
            batch = next(it).to("cuda", non_blocking=True)
        with torch.cuda.stream(self._data_dist_stream):
            wait_for_batch(batch, self._memcpy_stream)
            out = torch.empty_like(batch)
            dist.all_to_all_single(out, batch)
        torch.cuda.current_stream().wait_stream(self._data_dist_stream)
        return out

    def prefetch(self, it):
        with torch.cuda.stream(self._memcpy_stream):
            nxt = next(it).to("cuda", non_blocking=True)
        self._batch_ip1 = nxt

    def step(self):
        batch = self._batch_ip1
        with torch.cuda.stream(self._data_dist_stream):
            wait_for_batch(batch, self._memcpy_stream)
            out = torch.empty_like(batch)
            dist.all_to_all_single(out, batch)
        torch.cuda.current_stream().wait_stream(self._data_dist_stream)
        return out

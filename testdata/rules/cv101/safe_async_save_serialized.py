# torchtitan's CheckpointManager: two kinds of async saves on one gloo
# group, each started only after the future of the previous one has been
# waited for (self._async_wait()). They never run at the same time.
import torch.distributed as dist
import torch.distributed.checkpoint as dcp


class CheckpointManager:
    def __init__(self):
        self.pg = dist.new_group(backend="gloo")
        self.async_future = None

    def _async_wait(self):
        if self.async_future is not None:
            self.async_future.result()

    def _ft_save(self, states, path):
        self._async_wait()
        self.async_future = dcp.async_save(states, checkpoint_id=path, process_group=self.pg)

    def save(self, states, path):
        self._ft_save(states, path + "-ft")
        self._async_wait()
        self.async_future = dcp.async_save(states, checkpoint_id=path, process_group=self.pg)

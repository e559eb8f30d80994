# The same two saves without waiting for the previous future: both
# background threads can drive the gloo group at once.
import torch.distributed as dist
import torch.distributed.checkpoint as dcp


class CheckpointManager:
    def __init__(self):
        self.pg = dist.new_group(backend="gloo")
        self.async_future = None
        self.ft_future = None

    def _ft_save(self, states, path):
        self.ft_future = dcp.async_save(states, checkpoint_id=path, process_group=self.pg)  # want CV101 "async_save runs collectives on group"

    def save(self, states, path):
        self._ft_save(states, path + "-ft")
        if self.async_future is not None:
            self.async_future.result()
        self.async_future = dcp.async_save(states, checkpoint_id=path, process_group=self.pg)  # want CV101 "async_save runs collectives on group"

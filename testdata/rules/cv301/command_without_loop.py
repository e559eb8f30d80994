# Rank 0 broadcasts a command on the control group, but the other ranks'
# loop receives on another group: nothing takes the command.
import torch.distributed as dist


class Worker:
    def __init__(self, rank):
        self.rank = rank
        self.control_group = dist.new_group(backend="gloo")
        self.data_group = dist.new_group(backend="gloo")

    def setup_engine(self):
        if self.rank == 0:
            self._broadcast_command("setup_engine")  # want CV301 "self.rank == 0"
        dist.barrier()

    def _broadcast_command(self, command, args=None):
        cmd_list = [command, args]
        dist.broadcast_object_list(cmd_list, src=0, group=self.control_group)

    @classmethod
    def worker_main(cls, rank):
        worker = cls(rank)
        if rank != 0:
            while True:
                cmd_list = [None, None]
                dist.broadcast_object_list(cmd_list, src=0, group=worker.data_group)
                if cmd_list[0] == "stop":
                    break

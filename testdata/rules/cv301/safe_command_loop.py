# TensorRT-LLM's torch.distributed worker: rank 0 serves requests and
# broadcasts each command on the control group; the other ranks sit in a
# loop that receives the next command and runs the same method, where the
# rank test skips the broadcast.
import torch.distributed as dist


class Worker:
    def __init__(self, rank):
        self.rank = rank
        self.control_group = dist.new_group(backend="gloo")

    def setup_engine(self):
        if self.rank == 0:
            self._broadcast_command("setup_engine")
        dist.barrier()

    def shutdown(self):
        if self.rank == 0:
            self._broadcast_command("shutdown")

    def _broadcast_command(self, command, args=None):
        cmd_list = [command, args]
        dist.broadcast_object_list(cmd_list, src=0, group=self.control_group)

    @classmethod
    def worker_main(cls, rank):
        worker = cls(rank)
        if rank == 0:
            worker.serve()
        else:
            while True:
                cmd_list = [None, None]
                dist.broadcast_object_list(cmd_list, src=0, group=worker.control_group)
                cmd, args = cmd_list
                if cmd == "setup_engine":
                    worker.setup_engine()
                elif cmd == "shutdown":
                    worker.shutdown()
                    break

    def serve(self):
        pass

# A client sends its request to a dedicated server rank and then receives
# the reply; the server's loop receives first, from any client. The peer
# is the same rank on every client, which never runs this code itself:
# a request and a reply, not an exchange.
import torch
import torch.distributed as dist


class Server:
    def start(self):
        while True:
            cmd = torch.zeros(2, dtype=torch.long)
            src = dist.recv(cmd)
            dist.send(cmd * 2, dst=src)


class Client:
    def __init__(self, server_rank):
        self.server_rank = server_rank

    def request(self, x):
        dist.send(x, self.server_rank)
        out = torch.empty_like(x)
        dist.recv(out, src=self.server_rank)
        return out


class SchedulerClient:
    # A work scheduler one rank runs for the others (dist-kge's partition
    # scheduler): the same request and reply.
    def __init__(self, min_rank):
        self.scheduler_rank = min_rank - 1

    def get_work(self):
        cmd = torch.LongTensor([7, 0])
        dist.send(cmd, dst=self.scheduler_rank)
        info = torch.zeros((2,), dtype=torch.long)
        dist.recv(info, src=self.scheduler_rank)
        return info

# A block's collective function, called through self.__class__, returns
# the batch_isend_irecv works, which run() drops (pytorch/benchmark's
# maestro ring block).
import torch
import torch.distributed as dist


class Block:
    collective_fnc = None

    def __init__(self, dst, src, group):
        self.dst, self.src, self.group = dst, src, group

    def run(self):
        self.__class__.collective_fnc(self.dst, self.src, group=self.group)  # want CV401 "the batch_isend_irecv that collective_fnc returns is discarded"


class SendRecvRing(Block):
    @staticmethod
    def collective_fnc(dst, src, group):
        send_op = dist.P2POp(dist.isend, src, 1, group=group)
        recv_op = dist.P2POp(dist.irecv, dst, 0, group=group)
        return dist.batch_isend_irecv([send_op, recv_op])


def main(group):
    buf = torch.ones(1024, device="cuda")
    SendRecvRing(buf[:512], buf[512:], group).run()

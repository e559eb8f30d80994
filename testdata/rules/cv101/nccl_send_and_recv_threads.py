# One helper thread sends and another receives on an NCCL group: both
# run on the group's one communicator, which NCCL forbids driving from
# several threads at once.
import queue
import threading

import torch
import torch.distributed as dist


def send_helper(q, dst, n):
    for _ in range(n):
        dist.send(q.get(), dst=dst)  # want CV101 "send"


def recv_helper(q, src, n):
    for _ in range(n):
        t = torch.zeros(4, device="cuda")
        dist.recv(t, src=src)  # want CV101 "recv"
        q.put(t)


def main():
    dist.init_process_group("nccl")
    peer = 1 - dist.get_rank()
    out_q, in_q = queue.Queue(), queue.Queue()
    s = threading.Thread(target=send_helper, args=(out_q, peer, 10))
    r = threading.Thread(target=recv_helper, args=(in_q, peer, 10))
    s.start()
    r.start()
    s.join()
    r.join()

# Two listener threads both receive from any source on a gloo group,
# with the same (default) tag: which thread takes a message depends on
# timing.
import threading

import torch
import torch.distributed as dist


def listen(buf):
    while True:
        dist.recv(buf)  # want CV101 "recv"


def serve():
    dist.init_process_group("gloo")
    for buf in (torch.zeros(8), torch.zeros(1)):
        threading.Thread(target=listen, args=(buf,), daemon=True).start()

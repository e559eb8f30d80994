import os
import threading

import torch
import torch.distributed as dist

dist.init_process_group("nccl")
rank = dist.get_rank()
world = dist.get_world_size()
torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))

pg_main = dist.new_group()
pg_bg = dist.new_group()
s_bg = torch.cuda.Stream()
n = 1000
peer = (rank + 1) % world
prev = (rank - 1) % world


def bg():
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    send_buf = torch.ones(1 << 20, device="cuda")
    recv_buf = torch.empty(1 << 20, device="cuda")
    with torch.cuda.stream(s_bg):
        for _ in range(n):
            ops = [
                dist.P2POp(dist.isend, send_buf, peer, group=pg_bg),
                dist.P2POp(dist.irecv, recv_buf, prev, group=pg_bg),
            ]
            for w in dist.batch_isend_irecv(ops):
                w.wait()


t = threading.Thread(target=bg)
t.start()
x = torch.ones(1 << 20, device="cuda")
for _ in range(n):
    dist.all_reduce(x, group=pg_main)
t.join()

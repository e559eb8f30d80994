# Even ranks send first, odd ranks receive first; the same test then picks
# the other half of the exchange. A handle bound where the test was false
# is not there where it is true, so neither rebinding drops a handle; the
# second function tests another condition, and does.
import torch.distributed as dist


def exchange(send_buff, recv_buff, left, right, steps):
    rank = dist.get_rank()
    for _ in range(steps):
        if rank % 2 == 0:
            send_req = dist.isend(send_buff, right)
        else:
            recv_req = dist.irecv(recv_buff, left)

        if rank % 2 == 0:
            recv_req = dist.irecv(recv_buff, left)
        else:
            send_req = dist.isend(send_buff, right)

        send_req.wait()
        recv_req.wait()


def exchange_other_test(send_buff, recv_buff, left, right, flip):
    rank = dist.get_rank()
    if rank % 2 == 0:
        send_req = dist.isend(send_buff, right)
    else:
        recv_req = dist.irecv(recv_buff, left)  # want CV401 "\"recv_req\", the work handle of this irecv, is rebound at line 32"
    if flip:
        recv_req = dist.irecv(recv_buff, left)
    send_req.wait()
    recv_req.wait()

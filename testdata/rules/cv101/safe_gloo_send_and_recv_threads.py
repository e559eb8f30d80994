# One helper thread sends, another receives, on a gloo group (Galaxy-LM's
# pipeline helpers): gloo matches point-to-point messages by peer and
# tag, not by the order threads issue them, so the two cannot take each
# other's messages. Both threads are joined before the group is torn
# down.
import queue
import threading
import torch
import torch.distributed as dist


def send_helper(q, dst, tag, n):
    for _ in range(n):
        dist.send(q.get().cpu(), dst=dst, tag=tag)


def recv_helper(q, src, tag, n):
    for _ in range(n):
        t = torch.zeros(4)
        dist.recv(t, src=src, tag=tag)
        q.put(t)


def main():
    dist.init_process_group("gloo")
    rank, n = dist.get_rank(), 200
    peer = 1 - rank
    send_tag, recv_tag = (0, 1) if rank == 0 else (1, 0)
    out_q, in_q = queue.Queue(), queue.Queue()
    s = threading.Thread(target=send_helper, args=(out_q, peer, send_tag, n))
    r = threading.Thread(target=recv_helper, args=(in_q, peer, recv_tag, n))
    s.start()
    r.start()
    for i in range(n):
        out_q.put(torch.full((4,), float(rank * 1000 + i)))
        assert in_q.get()[0].item() == peer * 1000 + i
    s.join()
    r.join()
    dist.destroy_process_group()
    print("rank", rank, "ok")


if __name__ == "__main__":
    main()

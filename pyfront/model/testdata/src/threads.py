import threading
import torch
import torch.distributed as dist

dist.init_process_group("nccl")
pg_a = dist.new_group([0, 1])  # alloc: PA
pg_b = dist.new_group([0, 1], backend="gloo")  # alloc: PB


def worker(pg, t):
    dist.all_reduce(t, group=pg)  # context: thread@A, thread@B  # reach-group: A=new_group@PA, B=new_group@PB


def looped(t):
    dist.broadcast(t, 0)  # context: thread@C*  # group: WORLD


def never_spawned_twice(t):
    dist.barrier()  # context: thread@D


def joined_in_loop(t):
    dist.barrier()  # context: thread@F


def started_in_loop(t):
    dist.barrier()  # context: thread@G*


class Saver(threading.Thread):
    def run(self):
        dist.all_gather_object([], {})  # context: thread@E


def main_only(t):
    dist.all_reduce(t, group=None)  # context: main  # group: WORLD


def main():
    t = torch.ones(1)
    threading.Thread(target=worker, args=(pg_a, t)).start()  # spawn: A  # calls: threading.Thread
    threading.Thread(target=worker, args=(pg_b, t)).start()  # spawn: B
    for _ in range(4):
        threading.Thread(target=looped, args=(t,)).start()  # spawn: C
    th = threading.Thread(target=never_spawned_twice, args=(t,))  # spawn: D joined
    th.start()
    th.join()
    for _ in range(4):
        # Started and joined in the same iteration: one at a time.
        tf = threading.Thread(target=joined_in_loop, args=(t,))  # spawn: F joined
        tf.start()
        tf.join()
    for _ in range(4):
        # Joined after the loop: all four run at once.
        tg = threading.Thread(target=started_in_loop, args=(t,))  # spawn: G
        tg.start()
    tg.join()
    s = Saver()  # spawn: E
    s.start()
    main_only(t)  # calls: threads.main_only
    dist.all_reduce(t, group=dist.group.WORLD)  # context: main  # group: WORLD


main()  # calls: threads.main

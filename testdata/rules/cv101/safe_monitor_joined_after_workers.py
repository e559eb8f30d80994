# A monitor thread started in each pass and joined in the same pass, after
# the main thread has only joined the workers (Kidand/chess's self-play
# loop): one monitor runs at a time, and the main thread issues its
# barrier after the join.
import threading

import torch
import torch.distributed as dist


def train(segments, n_workers, play):
    for _ in range(segments):
        done = [0]

        def worker():
            play()
            done[0] += 1

        def monitor():
            while True:
                t = torch.tensor([float(done[0])])
                dist.all_reduce(t)
                if t.item() >= n_workers * dist.get_world_size():
                    break

        threads = [threading.Thread(target=worker) for _ in range(n_workers)]
        mon = threading.Thread(target=monitor)
        for t in threads:
            t.start()
        mon.start()
        for t in threads:
            t.join()
        mon.join()
        dist.barrier()

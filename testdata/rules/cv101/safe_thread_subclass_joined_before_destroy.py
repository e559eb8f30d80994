# The command thread (a Thread subclass) is told to stop and joined,
# after other work, before the main thread tears the group down
# (LLM-PQ's runtime): its last receive is over by then.
import threading
import time

import torch
import torch.distributed as dist

TAG_CMD = 7


class CommandThread(threading.Thread):
    def __init__(self):
        super().__init__()
        self._stop_evt = threading.Event()

    def stop(self):
        self._stop_evt.set()

    def run(self):
        while True:
            cmd = torch.zeros(2, dtype=torch.int)
            req = dist.irecv(cmd, tag=TAG_CMD)
            while not req.is_completed():
                if self._stop_evt.is_set():
                    return
                time.sleep(0.1)
            print("cmd", cmd.tolist())


def main():
    dist.init_process_group("gloo")
    thr = CommandThread()
    thr.start()
    time.sleep(1)
    thr.stop()
    thr.join()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()

# The thread's target may be either client's listen by the values alone,
# but only the asynchronous client's takes the stop event the thread
# hands it: the other's listen(self), which receives on the group, would
# raise there. That one runs on the main thread only.
import queue
import sys
import threading

import torch
import torch.distributed as dist


class SyncClient:
    def __init__(self):
        self.buf = torch.zeros(4)

    def listen(self):
        dist.recv(self.buf, src=0)

    def upload(self):
        dist.send(self.buf, dst=0)


class AsyncClient(SyncClient):
    def __init__(self):
        super().__init__()
        self.inbox = queue.Queue()

    def listen(self, stop):
        while not stop.is_set():
            self.inbox.get()


class SyncRunner:
    def run(self, client):
        for _ in range(3):
            client.listen()
            client.upload()


class AsyncRunner:
    def run(self, client):
        stop = threading.Event()
        t = threading.Thread(target=client.listen, args=(stop,), daemon=True)
        t.start()
        for _ in range(3):
            client.upload()
        stop.set()


def main():
    dist.init_process_group("gloo")
    if sys.argv[1] == "async":
        runner, client = AsyncRunner(), AsyncClient()
    else:
        runner, client = SyncRunner(), SyncClient()
    runner.run(client)

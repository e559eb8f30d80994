# vLLM's tensor-parallel coordinator used from the main thread only; a
# worker thread does host work.
import threading

from vllm.distributed.parallel_state import get_tp_group


def load(path):
    return open(path).read()


def forward(x, path):
    t = threading.Thread(target=load, args=(path,))
    t.start()
    y = get_tp_group().all_reduce(x)
    t.join()
    return y

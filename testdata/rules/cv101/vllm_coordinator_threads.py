# vLLM's tensor-parallel coordinator: a background thread broadcasts on it
# while the main thread all-reduces on it.
import threading

from vllm.distributed.parallel_state import get_tp_group


def sync_config(obj):
    get_tp_group().broadcast_object(obj, src=0)  # want CV101 "GroupCoordinator.broadcast_object"


def forward(x, cfg):
    threading.Thread(target=sync_config, args=(cfg,)).start()
    return get_tp_group().all_reduce(x)

# Paddle's collectives under the names of the modules that define them
# (PaddleNLP's `stream.gather`, Paddle's sharding code's
# collective.all_reduce), issued by rank 0 only.
import paddle
import paddle.distributed as dist
from paddle.distributed import collective
from paddle.distributed.communication import stream


def gather_on_zero(t, parts):
    if dist.get_rank() == 0:
        stream.gather(t, parts, dst=0)  # want CV301 "gather on the default group"


def reduce_on_zero(t):
    if dist.get_rank() == 0:
        collective.all_reduce(t)  # want CV301 "all_reduce on the default group"

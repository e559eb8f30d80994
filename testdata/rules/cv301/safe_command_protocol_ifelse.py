# A leader and its followers in one if/else (levanter's eval harness):
# process 0 broadcasts a command per request and then STOP; the others
# loop receiving commands until STOP. The runs match, although the arms'
# sequences, read statically, do not.
import jax
import jax.numpy as jnp
import torch.distributed as dist
from jax.experimental.multihost_utils import broadcast_one_to_all

STOP, WORK = 0, 1


def run_jax(requests, step_fn, dummy):
    if jax.process_index() == 0:
        for payload in requests:
            broadcast_one_to_all(jnp.array(WORK))
            step_fn(broadcast_one_to_all(payload))
        broadcast_one_to_all(jnp.array(STOP))
    else:
        while True:
            message = broadcast_one_to_all(jnp.array(STOP)).item()
            if message == STOP:
                break
            step_fn(broadcast_one_to_all(dummy))


def run_torch(commands, execute):
    if dist.get_rank() == 0:
        for c in commands:
            dist.broadcast_object_list([c], src=0)
            execute(c)
        dist.broadcast_object_list([None], src=0)
    else:
        while True:
            box = [None]
            dist.broadcast_object_list(box, src=0)
            if box[0] is None:
                break
            execute(box[0])

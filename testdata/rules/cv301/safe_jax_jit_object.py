# Every process runs the compiled step; only the I/O is gated. numba's
# @jit compiles for the host and communicates with nobody.
import jax
import jax.numpy as jnp
import torch.distributed as dist
from numba import jit


def train_step(params, batch):
    return jnp.mean((batch @ params) ** 2)


p_train_step = jax.jit(train_step)


@jit
def histogram(x):
    return x.sum()


def maybe_eval(params, batch, step, writer):
    loss = p_train_step(params, batch)
    if jax.process_index() == 0:
        writer.add_scalar("loss", loss, step)


def report(x):
    if dist.get_rank() == 0:
        histogram(x)

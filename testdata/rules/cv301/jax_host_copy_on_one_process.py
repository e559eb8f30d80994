# Host copies of a jitted function's result made by process 0 only
# (netket PR #2272, R9).
import json
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def stats_of(samples):
    return {"mean": jnp.mean(samples), "var": jnp.var(samples)}


@partial(jax.jit, static_argnums=1)
def scaled(x, k):
    return x * k


def log_step(step, samples, outfile):
    stats = stats_of(samples)
    if jax.process_index() == 0:
        record = {k: float(np.asarray(v)) for k, v in stats.items()}  # want CV301 "host copy of a jitted function's result"
        outfile.write(json.dumps(record))


def report(x):
    y = scaled(x, 2)
    if jax.process_index() == 0:
        print(y.item())  # want CV301 "host copy"

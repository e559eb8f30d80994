# Host copies made by every process, with only the I/O gated; a plain
# (not jitted) function's result; a host copy of a value that did not
# come from a jitted call.
import json

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def stats_of(samples):
    return {"mean": jnp.mean(samples), "var": jnp.var(samples)}


def host_stats(samples):
    return {"mean": samples.mean()}


def log_step(step, samples, outfile):
    stats = stats_of(samples)
    record = {k: float(np.asarray(v)) for k, v in stats.items()}
    if jax.process_index() == 0:
        outfile.write(json.dumps(record))


def log_host(samples, outfile):
    stats = host_stats(samples)
    if jax.process_index() == 0:
        outfile.write(str(float(np.asarray(stats["mean"]))))


def log_step_count(step, outfile):
    if jax.process_index() == 0:
        outfile.write(str(int(np.asarray(step))))

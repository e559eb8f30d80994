import json

import jax
import jax.numpy as jnp
import numpy as np

is_master_process = jax.process_index() == 0


@jax.jit
def compute_stats(samples):
    return {"mean": jnp.mean(samples), "var": jnp.var(samples)}


def log_step(step, samples, outfile):
    stats = compute_stats(samples)
    record = {k: float(np.asarray(v)) for k, v in stats.items()}
    record["step"] = step
    if is_master_process:
        outfile.write(json.dumps(record) + "\n")

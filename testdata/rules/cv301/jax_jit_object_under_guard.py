# maxtext, EasyLM and levanter bind their compiled steps as objects
# (p_train_step = jax.jit(...)). Calling one under a process test runs a
# program over the whole mesh on one process only.
import jax
import jax.numpy as jnp


def train_step(params, batch):
    return jnp.mean((batch @ params) ** 2)


p_train_step = jax.jit(train_step)


@jax.jit
def eval_step(params, batch):
    return jnp.mean(batch @ params)


def maybe_eval(params, batch, step):
    if jax.process_index() == 0:
        loss = p_train_step(params, batch)  # want CV301 "a run of a compiled JAX program"
        print(step, loss)


def maybe_eval_decorated(params, batch):
    if jax.process_index() == 0:
        eval_step(params, batch)  # want CV301 "a run of a compiled JAX program"

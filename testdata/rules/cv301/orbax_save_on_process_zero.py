# An Orbax checkpoint save is collective across JAX processes: process 0
# saving alone leaves the others waiting.
import jax
import orbax.checkpoint as ocp

jax.distributed.initialize()
state = {"w": jax.numpy.zeros(4)}
ckptr = ocp.StandardCheckpointer()
manager = ocp.CheckpointManager("checkpoints/run")


def save_on_leader(step):
    if jax.process_index() == 0:
        ckptr.save("checkpoints/latest", state)  # want CV301 "StandardCheckpointer.save"


def save_everywhere(step):
    manager.save(step, args=ocp.args.StandardSave(state))

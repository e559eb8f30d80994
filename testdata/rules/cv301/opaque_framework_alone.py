# Megatron's save_checkpoint is collective inside (barriers on the default
# group): called by data-parallel rank 0 alone, it waits for ranks that
# never call it.
from megatron import mpu
from megatron.checkpointing import save_checkpoint


def maybe_save(iteration, model, optimizer, lr_scheduler):
    if mpu.get_data_parallel_rank() == 0:
        save_checkpoint(iteration, model, optimizer, lr_scheduler)  # want CV301 "save_checkpoint .* runs only when"

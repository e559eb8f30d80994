# fastmoe's expert-parallel checkpointing: data-parallel rank 0 runs
# Megatron's own save_checkpoint, whose barriers surround its write; the
# other ranks save their experts between two barriers of their own. Both
# paths communicate, one inside a library call whose collectives the
# tables do not spell out, so they are not compared op by op.
import torch
from megatron import mpu


def save_checkpoint(iteration, model, optimizer, lr_scheduler, path):
    if mpu.get_data_parallel_rank() == 0:
        from megatron.checkpointing import save_checkpoint as save_checkpoint_native

        save_checkpoint_native(iteration, model, optimizer, lr_scheduler)
        return
    torch.save(model.state_dict(), path)
    torch.distributed.barrier()
    torch.distributed.barrier()

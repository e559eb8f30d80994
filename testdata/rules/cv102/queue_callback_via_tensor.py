# The engine reached through a parameter (NVIDIA's tacotron2 gradient
# all-reduce): the queued callback runs on the engine thread at the end of
# backward, while the main thread issues its own collectives.
import torch.distributed as dist


def apply_gradient_allreduce(module):
    def allreduce_params():
        for p in module.parameters():
            if p.grad is not None:
                dist.all_reduce(p.grad)  # want CV102 "registered with queue_callback"

    for param in module.parameters():
        def hook(*unused):
            param._execution_engine.queue_callback(allreduce_params)

        param.register_hook(hook)
    return module


def step(model, loss, amax):
    dist.all_reduce(amax)
    loss.backward()

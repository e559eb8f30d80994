# PyTorch/XLA: a replica that skips a collective compiles a different
# graph from its peers; the host rendezvous waits for every replica.
import torch
import torch_xla.core.xla_model as xm


def reduce_on_master(t):
    if xm.is_master_ordinal():
        xm.all_reduce(xm.REDUCE_SUM, [t])  # want CV301 "all_reduce.*is_master_ordinal"
    return t


def checkpoint(state, path):
    if xm.get_ordinal() == 0:
        torch.save(state, path)
    xm.rendezvous("checkpoint")


def gather_everywhere(t):
    return xm.all_gather(t, dim=0)

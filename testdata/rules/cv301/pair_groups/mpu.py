# Megatron-style group globals (terapipe's mpu): the pipeline's
# neighbouring pairs get two-rank groups that only the pair's members
# keep; the model-parallel groups partition the ranks.
import torch.distributed as dist

_PRED_GROUP = None
_SUCC_GROUP = None
_MP_GROUP = None


def initialize(mp_size, pp_size):
    global _PRED_GROUP, _SUCC_GROUP, _MP_GROUP
    rank = dist.get_rank()
    world = dist.get_world_size()
    for i in range(world // mp_size):
        ranks = list(range(i * mp_size, (i + 1) * mp_size))
        group = dist.new_group(ranks)
        if rank in ranks:
            _MP_GROUP = group
    for i in range(1, pp_size):
        pred = i * mp_size - 1
        succ = i * mp_size
        group = dist.new_group([pred, succ])
        if rank == pred:
            _PRED_GROUP = group
        if rank == succ:
            _SUCC_GROUP = group


def get_pred_group():
    return _PRED_GROUP


def get_succ_group():
    return _SUCC_GROUP


def get_mp_group():
    return _MP_GROUP

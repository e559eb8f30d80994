# The distributed helpers of OpenMMLab, detectron2, Composer and fairseq
# are collectives over their group: gated on a rank test (theirs or
# torch's), the other ranks never join them and the job hangs.
import torch.distributed as dist
from composer.utils import dist as cdist
from detectron2.utils import comm
from fairseq import distributed_utils
from mmcv.runner import get_dist_info
from mmengine.dist import all_reduce, collect_results, is_main_process, master_only


def mm_sync(t):
    if is_main_process():
        all_reduce(t)  # want CV301 "all_reduce on the default group.*is_main_process\(\)"


@master_only
def mm_evaluate(results, size):
    return collect_results(results, size)  # want CV301 "@master_only"


def d2_after_eval():
    if comm.is_main_process():
        comm.synchronize()  # want CV301 "synchronize on .*comm.is_main_process"


def d2_seed():
    if comm.get_rank() == 0:
        return comm.shared_random_seed()  # want CV301 "shared_random_seed"
    return 0


def composer_checkpoint(t):
    if cdist.get_global_rank() == 0:
        cdist.barrier()  # want CV301 "barrier on .*get_global_rank\(\) == 0"


def fairseq_stats(stats, group):
    if dist.get_rank() == 0:
        return distributed_utils.all_gather_list(stats, group=group)  # want CV301 "all_gather_list"
    return [stats]


def mm_legacy(t):
    rank, world_size = get_dist_info()
    if rank == 0:
        all_reduce(t)  # want CV301 "all_reduce on the default group.*`rank == 0`"
    if get_dist_info()[0] == 0:
        all_reduce(t)  # want CV301 "get_dist_info\(\)\[0\] == 0"


def timm_validate(args, loss, model):
    from timm import utils

    if utils.is_primary(args):
        reduced = utils.reduce_tensor(loss.data, args.world_size)  # want CV301 "reduce_tensor on the default group.*utils.is_primary"
        print(reduced)
    if args.local_rank == 0:
        utils.distribute_bn(model, args.world_size)  # want CV301 "distribute_bn"

# The same helpers called on every rank, with only rank-local work (printing,
# writing) under the rank test, stay silent.
from composer.utils import dist as cdist
from detectron2.utils import comm
from mmcv.runner import get_dist_info
from mmengine.dist import all_reduce, barrier, is_main_process, master_only


def mm_sync(t, path):
    all_reduce(t)
    if is_main_process():
        with open(path, "w") as f:
            f.write(str(t))
    barrier()


@master_only
def mm_log(msg):
    print(msg)


def d2_after_eval(results):
    comm.synchronize()
    gathered = comm.gather(results, dst=0)
    if comm.is_main_process():
        print(len(gathered))


def composer_step():
    cdist.barrier()
    if cdist.get_local_rank() == 0:
        print("step done")


def mm_legacy(t):
    rank, world_size = get_dist_info()
    if world_size > 1:
        all_reduce(t)
    if rank == 0:
        print(t)
    if get_dist_info()[1] > 1:
        all_reduce(t)


def timm_validate(args, loss, model):
    from timm import utils

    if args.distributed:
        reduced = utils.reduce_tensor(loss.data, args.world_size)
        utils.distribute_bn(model, args.world_size, args.dist_bn == "reduce")
    else:
        reduced = loss.data
    if utils.is_primary(args):
        print(reduced)

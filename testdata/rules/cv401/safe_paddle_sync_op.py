# Paddle: the task of sync_op=False waited; the default sync_op=True
# (and an explicit True) returns after the op.
import paddle.distributed as dist


def reduce_async(x):
    task = dist.all_reduce(x, sync_op=False)
    task.wait()
    return x.numpy()


def reduce_sync(x, y):
    dist.all_reduce(x)
    dist.broadcast(y, 0, sync_op=True)
    return x.numpy() + y.numpy()

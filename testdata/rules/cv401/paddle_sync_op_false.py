# Paddle: sync_op=False returns a task; synchronising the calculation
# stream does not wait for the communication stream the op runs on
# (PaddlePaddle/Paddle#51454, S12).
import paddle
import paddle.distributed as dist


def reduce_and_check(x):
    dist.all_reduce(x, sync_op=False)  # want CV401 "discarded"
    paddle.device.cuda.current_stream().synchronize()
    return x.numpy()


def stream_variant(x):
    task = dist.stream.all_reduce(x, sync_op=False, use_calc_stream=False)  # want CV401 "never waited|not waited"
    return x.numpy()

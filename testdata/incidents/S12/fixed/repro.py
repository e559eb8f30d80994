import numpy as np
import paddle
import paddle.distributed as dist


def test_allreduce():
    dist.init_parallel_env()
    rank = dist.get_rank()
    x = paddle.full([1 << 20], float(rank + 1), dtype="float32")
    task = dist.all_reduce(x, sync_op=False, use_calc_stream=False)
    task.wait()
    expected = sum(range(1, dist.get_world_size() + 1))
    np.testing.assert_allclose(x.numpy(), np.full([1 << 20], expected, dtype="float32"))


if __name__ == "__main__":
    test_allreduce()

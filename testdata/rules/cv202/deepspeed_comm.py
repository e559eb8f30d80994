import deepspeed.comm as dscomm


def step(shard, full, intra, inter):
    g1 = dscomm.new_group([0, 1])
    g2 = dscomm.new_group([0, 2])
    h = dscomm.reduce_scatter_tensor(shard, full, group=g1, async_op=True)
    dscomm.all_reduce(shard, group=g2)  # want CV202 "reduce_scatter_tensor"
    h.wait()

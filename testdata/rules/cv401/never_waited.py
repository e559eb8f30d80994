# U1 (vllm-ascend#12811): only the last handle is waited.
import torch.distributed as dist


def gather3(kv, k_li, k_sc, out1, out2, out3, tp_group):
    h1 = dist.all_gather_into_tensor(out1, kv, group=tp_group, async_op=True)  # want CV401 "\"h1\".* never waited"
    h2 = dist.all_gather_into_tensor(out2, k_li, group=tp_group, async_op=True)  # want CV401 "\"h2\".* never waited"
    h3 = dist.all_gather_into_tensor(out3, k_sc, group=tp_group, async_op=True)
    h3.wait()
    return out1, out2, out3

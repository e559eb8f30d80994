import torch
import torch.distributed as dist


class Stage2Optimizer:
    def __init__(self, params, bucket_numel, dp_group):
        self.params = list(params)
        self.dp_group = dp_group
        self.reduction_stream = torch.cuda.Stream()
        self.ipg_buffer = torch.empty(bucket_numel, dtype=torch.float16, device="cuda")
        self.ipg_offset = 0
        self.bucket_params = []

    def grad_ready(self, param):
        n = param.grad.numel()
        if self.ipg_offset + n > self.ipg_buffer.numel():
            self.average_tensor()
        self.ipg_buffer.narrow(0, self.ipg_offset, n).copy_(param.grad.view(-1))
        self.ipg_offset += n
        self.bucket_params.append(param)

    def average_tensor(self):
        self.reduction_stream.wait_stream(torch.cuda.default_stream())
        with torch.cuda.stream(self.reduction_stream):
            dist.all_reduce(self.ipg_buffer, group=self.dp_group)
            self.ipg_buffer.div_(dist.get_world_size(self.dp_group))
        torch.cuda.default_stream().wait_stream(self.reduction_stream)
        self.ipg_offset = 0
        self.bucket_params = []

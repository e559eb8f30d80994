# FastChat's dataset: the other ranks wait at a barrier while rank 0
# prepares the data; rank 0 releases them on either path, from the cache
# (`if rank == 0: barrier()`) or after building it (the else arm, which
# only rank 0 reaches: the assert). One barrier per rank.
import json
import os

import torch.distributed as dist


class SupervisedDataset:
    def __init__(self, data_path, cache_path):
        if dist.get_rank() != 0:
            dist.barrier()
        if os.path.exists(cache_path):
            with open(cache_path) as f:
                self.data = json.load(f)
            if dist.get_rank() == 0:
                dist.barrier()
        else:
            assert dist.get_rank() == 0, "only the first process builds the data"
            self.data = json.load(open(data_path))
            with open(cache_path, "w") as f:
                json.dump(self.data, f)
            dist.barrier()

# The same shape where building the data never releases the waiting
# ranks: on that path rank 0 issues no barrier, and the others wait
# forever.
import json
import os

import torch.distributed as dist


class SupervisedDataset:
    def __init__(self, data_path, cache_path):
        if dist.get_rank() != 0:
            dist.barrier()  # want CV301 "barrier .* runs only when"
        if os.path.exists(cache_path):
            with open(cache_path) as f:
                self.data = json.load(f)
            if dist.get_rank() == 0:
                dist.barrier()  # want CV301 "barrier .* runs only when"
        else:
            self.data = json.load(open(data_path))
            with open(cache_path, "w") as f:
                json.dump(self.data, f)

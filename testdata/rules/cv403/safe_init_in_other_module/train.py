# The same helpers, with the device bound before the barrier.
import torch

import utils.general_utils as utils
from utils.general_utils import init_distributed, safe_state

if __name__ == "__main__":
    init_distributed()
    safe_state()
    if utils.WORLD_SIZE > 1:
        torch.distributed.barrier()

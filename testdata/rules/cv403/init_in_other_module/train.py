# The helpers live in the project's utils module: the script makes the
# group through one, runs a barrier, and binds the device through the
# other.
import torch

import utils.general_utils as utils
from utils.general_utils import init_distributed, safe_state

if __name__ == "__main__":
    init_distributed()
    if utils.WORLD_SIZE > 1:
        torch.distributed.barrier()
    safe_state()

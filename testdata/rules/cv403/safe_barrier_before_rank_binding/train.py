# A barrier before a set_device of the rank's own GPU is no hazard: not
# knowing the device, ProcessGroupNCCL runs the barrier on GPU `global
# rank % GPUs per node`, the rank's local GPU wherever ranks fill the
# nodes in order (torchrun's numbering). These are the projects' own
# shapes; the unsafe CV403 fixtures of the same names issue an object
# collective (device 0 on every rank) where these have the barrier.
# The helpers in the project's utils module.
import torch

import utils.general_utils as utils
from utils.general_utils import init_distributed, safe_state

if __name__ == "__main__":
    init_distributed()
    if utils.WORLD_SIZE > 1:
        torch.distributed.barrier()
    safe_state()

# The helpers live in the project's utils module: the script makes the
# group through one, broadcasts an object, and binds the device through the
# other.
import torch

import utils.general_utils as utils
from utils.general_utils import init_distributed, safe_state

if __name__ == "__main__":
    init_distributed()
    if utils.WORLD_SIZE > 1:
        torch.distributed.broadcast_object_list([None], src=0)
    safe_state()

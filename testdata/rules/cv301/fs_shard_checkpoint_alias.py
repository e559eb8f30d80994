# The checkpoint loads through the module's legacy name
# (torch.distributed._shard.checkpoint) are the same collectives: a rank
# whose host finds no checkpoint leaves before the load the others enter
# (foundation-model-stack's Checkpointer).
import os

from torch.distributed._shard.checkpoint import FileSystemReader, load_state_dict


def load(state, ckpt_dir):
    if not os.path.exists(ckpt_dir):
        return state
    load_state_dict(state, FileSystemReader(ckpt_dir))  # want CV301 "load_state_dict on the default group \(WORLD\) runs only on the ranks that do not leave early"
    return state

from pathlib import Path

import torch
import torch.distributed as dist


def maybe_resume(model, ckpt_dir):
    path = Path(ckpt_dir) / "latest.pt"
    flag = [path.exists() if dist.get_rank() == 0 else None]
    dist.broadcast_object_list(flag, src=0)
    if flag[0]:
        state = [torch.load(path, map_location="cpu")] if dist.get_rank() == 0 else [None]
        dist.broadcast_object_list(state, src=0)
        model.load_state_dict(state[0]["model"])
        return state[0]["step"]
    return 0

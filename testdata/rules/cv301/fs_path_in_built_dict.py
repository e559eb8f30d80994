# The cache paths are kept in a dict built by dict() and filled later:
# the path read back from it is checked on each host (validate_clm's
# pre-tokenized datasets).
from pathlib import Path

import torch.distributed as dist


def main(cache_dir, key):
    dist.init_process_group("nccl")
    path_map = dict()
    for k, v in [("wikitext_512", "tokenized_wikitext_512")]:
        path_map[k] = Path(cache_dir) / v
    cached = path_map.get(key, None)
    if cached is not None and cached.exists():
        data = str(cached)
    else:
        data = "tokenize"
        dist.barrier()  # want CV301 "a file system check that each rank makes on its own host"
    return data

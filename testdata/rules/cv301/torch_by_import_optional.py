# torch bound through a helper call with a constant name (cugraph_pyg's
# import_optional, importlib.import_module): the module named.
import warnings
from mypkg.utils.imports import import_optional

torch = import_optional("torch")


def start_offset(local_num_batches):
    rank = torch.distributed.get_rank()
    t = torch.empty((torch.distributed.get_world_size(),), dtype=torch.int64, device="cuda")
    if rank == 0:
        # hazard: only rank 0 gathers, the peers never issue the collective
        torch.distributed.all_gather_into_tensor(  # want CV301 "all_gather_into_tensor on the default group \(WORLD\) runs only when `rank == 0` holds"
            t, torch.tensor([local_num_batches], device="cuda"))
        warnings.warn(f"batches per rank: {t.tolist()}")
    return t

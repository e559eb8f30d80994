# Staged copies made on a side stream are filed in the function's own
# dict by reference; the caller's stream waits an event recorded after
# them before anything reads them (an asynchronous checkpoint's snapshot).
# Filing a reference reads no device memory, as memo.append(staged) would
# not.
import torch


def stage(tensors, stream):
    memo = {}
    for key, t in tensors.items():
        with torch.cuda.stream(stream):
            staged = torch.empty_like(t)
            staged.copy_(t, non_blocking=True)
        memo[key] = staged
    done = torch.cuda.Event()
    done.record(stream)
    torch.cuda.current_stream().wait_event(done)
    return memo, done


def stage_tree(obj, memo, stream):
    # The memo is handed in (a recursive staging helper): the function
    # reads it with .get, so it is a dict, and the store files a
    # reference.
    key = id(obj)
    staged = memo.get(key)
    if staged is None:
        with torch.cuda.stream(stream):
            staged = torch.empty_like(obj, device=obj.device)
            staged.copy_(obj, non_blocking=True)
        memo[key] = staged
    return staged


def snapshot(tensors, stream):
    memo = {}
    out = [stage_tree(t, memo, stream) for t in tensors]
    done = torch.cuda.Event()
    done.record(stream)
    torch.cuda.current_stream().wait_event(done)
    return out, done

# Batches cut from a host tensor (a CSR rowptr in host memory) with
# slices and clones run on the CPU: nothing is pending on a stream when a
# side stream copies them to the device (SALIENT++'s frequency pass).
import torch


def prefetch(rowptr, col, device, bounds):
    data_stream = torch.cuda.Stream(device)
    default_stream = torch.cuda.default_stream(device)
    rowptr_batches = [None] * len(bounds)
    col_batches = [None] * len(bounds)
    for i, (lo, hi) in enumerate(bounds):
        rowptr_batches[i] = rowptr[lo:hi + 1].clone()
        col_batches[i] = col[rowptr_batches[i][0]:rowptr_batches[i][-1]]
    with torch.cuda.stream(data_stream):
        next_rowptr = rowptr_batches[0].to(device=device, non_blocking=True).clone()
        next_col = col_batches[0].to(device=device, non_blocking=True)
    default_stream.wait_stream(data_stream)
    return next_rowptr, next_col

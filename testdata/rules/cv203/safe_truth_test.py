# FSDP1's _unshard: a flag computed under the pre-unshard stream is a
# Python bool; testing it on the current stream reads no device memory.
import torch


def unshard(handles, unshard_stream, pre_unshard_stream):
    any_ran = False
    with torch.cuda.stream(pre_unshard_stream):
        for handle in handles:
            ran = handle.pre_unshard()
            any_ran = any_ran or ran
    if any_ran:
        unshard_stream.wait_stream(pre_unshard_stream)
    done = False
    while not done:
        done = handles.poll()
    with torch.cuda.stream(unshard_stream):
        for handle in handles:
            handle.unshard()

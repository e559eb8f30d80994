# apex's DistributedFusedAdam gathers its state in chunks, each on one of
# its pipeline streams: the loop's index and offset are Python ints, which
# no stream writes.
import torch
import torch.distributed as dist


def gather_state(buffers, streams, state, size, chunk):
    main = torch.cuda.current_stream()
    for s in streams:
        s.wait_stream(main)
    for stream_id, offset in enumerate(range(0, size, chunk)):
        stream_id %= len(streams)
        with torch.cuda.stream(streams[stream_id]):
            buf = buffers[stream_id]
            buf[: min(chunk, size - offset)].copy_(state[offset : offset + chunk])
            dist.broadcast(buf, src=0)
    for s in streams:
        main.wait_stream(s)

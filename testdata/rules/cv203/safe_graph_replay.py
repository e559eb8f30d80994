# Tuning a collective by capturing it in a CUDA graph and replaying the
# graph on the capture stream: the graph object is a handle, replaying it
# reads no tensor of that name.
import torch


def time_graph(run, n):
    capture_stream = torch.cuda.Stream()
    capture_stream.wait_stream(torch.cuda.current_stream())
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g, stream=capture_stream):
        run()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record(capture_stream)
    with torch.cuda.stream(capture_stream):
        for _ in range(n):
            g.replay()
    end.record(capture_stream)
    end.synchronize()
    return start.elapsed_time(end)

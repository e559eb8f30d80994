# NVIDIA DeepLearningExamples' prefetcher (DLRM): _prefetch() loads the
# next batch on the side stream and returns it; the loop that calls it
# makes the current stream wait the side stream before it yields the
# batch, so the hand-off is ordered by the caller.
import torch


def prefetcher(load_iterator, prefetch_stream):
    def _prefetch():
        with torch.cuda.stream(prefetch_stream):
            try:
                data_batch = next(load_iterator)
            except StopIteration:
                return None

        return data_batch

    next_data_batch = _prefetch()

    while next_data_batch is not None:
        torch.cuda.current_stream().wait_stream(prefetch_stream)
        data_batch = next_data_batch
        next_data_batch = _prefetch()
        yield data_batch


def load(loader):
    stream = torch.cuda.Stream()
    for batch in prefetcher(iter(loader), stream):
        batch.sum()

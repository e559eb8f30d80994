# The prefetcher's helper, but the loop that calls it never waits the side
# stream: the returned batch is read on the current stream while the copy
# may still be running.
import torch


def prefetcher(load_iterator, prefetch_stream):
    def _prefetch():
        with torch.cuda.stream(prefetch_stream):
            try:
                data_batch = next(load_iterator)
            except StopIteration:
                return None

        return data_batch  # want CV203 "\"data_batch\" is written on prefetch_stream"

    next_data_batch = _prefetch()

    while next_data_batch is not None:
        data_batch = next_data_batch
        next_data_batch = _prefetch()
        yield data_batch

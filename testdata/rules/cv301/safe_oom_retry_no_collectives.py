# The same decorator around work that communicates nothing: a retry on
# one rank changes only that rank's own computation.
from accelerate.utils import find_executable_batch_size


def tune(make_batch, model):
    @find_executable_batch_size(starting_batch_size=64)
    def probe(batch_size):
        model(make_batch(batch_size))

    probe()

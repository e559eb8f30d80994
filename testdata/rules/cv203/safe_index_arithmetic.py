# FlexGen's cache pipeline: wrapping the layer, batch and iteration
# indices around (`j = self.num_layers - 1`) is Python int arithmetic on
# the host, and naming them under the store stream reads no tensor the
# current stream wrote.
import torch


class Pipeline:
    def __init__(self, layers, num_layers, num_gpu_batches):
        self.layers = layers
        self.num_layers = num_layers
        self.num_gpu_batches = num_gpu_batches
        self.store_cache_stream = torch.cuda.Stream()

    def store_cache(self, cache_home, cache_write_buf, j, k):
        if k == -1:
            k = self.num_gpu_batches - 1
            j -= 1
        if j == -1:
            j = self.num_layers - 1
        with torch.cuda.stream(self.store_cache_stream):
            self.layers[j].store_cache(cache_home[j][k], cache_write_buf[j][k])

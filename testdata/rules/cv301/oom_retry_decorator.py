# accelerate's find_executable_batch_size re-runs the function with a
# halved batch on the rank that ran out of memory, alone: that rank
# issues prepare()'s and the loop's collectives again while the others
# have gone on (accelerate's automatic_gradient_accumulation example).
from accelerate import Accelerator
from accelerate.utils import find_executable_batch_size


def run(make_model, make_loader):
    accelerator = Accelerator()

    @find_executable_batch_size(starting_batch_size=128)
    def inner(batch_size):
        accelerator.free_memory()
        model = make_model()
        loader = make_loader(batch_size)
        model, loader = accelerator.prepare(model, loader)  # want CV301 "runs again on a rank that runs out of memory"
        for batch in loader:
            loss = model(**batch).loss
            accelerator.backward(loss)
        accelerator.gather(loss)

    inner()

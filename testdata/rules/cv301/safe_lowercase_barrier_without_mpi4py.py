# Without mpi4py imported, a lowercase barrier() on an object of unknown
# type is no communicator's to guess (a work queue's, a test harness's).
import os


def get_code_to_compile(sync, cname, code):
    if os.path.isfile(cname):
        with open(cname) as f:
            return f.read()
    with open(cname, "w") as f:
        f.write(code)
    sync.barrier()
    return code

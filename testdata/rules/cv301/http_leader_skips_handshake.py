# The leader's handler broadcasts without the Barrier the followers'
# command loop issues first (safe_http_leader_command_loop.py has it): the
# leader's bcast pairs with the followers' Barrier.
from fastapi import FastAPI
from mpi4py import MPI


class Wrapper:
    def __init__(self):
        self.comm = MPI.COMM_WORLD
        self.rank = self.comm.Get_rank()
        self.app = self._create_app() if self.rank == 0 else None

    def _create_app(self):
        app = FastAPI()

        @app.put("/generate")
        async def generate(request: dict):
            data = self.comm.bcast(request, root=0)
            return handle(data)

        return app

    def worker_loop(self):
        while True:
            self.comm.Barrier()
            data = self.comm.bcast(None, root=0)
            if data is None:
                continue
            handle(data)

    def run(self):
        if self.rank == 0:
            import uvicorn
            uvicorn.run(self.app, port=5000)
        else:
            self.worker_loop()  # want CV301 "Comm.Barrier on the default group \(WORLD\) runs only when `self.rank != 0` holds"


def handle(data):
    return data


if __name__ == "__main__":
    Wrapper().run()

# A worker reads its resume generation from this host's checkpoint in
# its constructor. Looping on it as read runs each host's own number of
# passes; re-binding it from the root's broadcast first makes every rank
# loop on the root's (propulate's island workers).
import os
import pickle

from mpi4py import MPI


class Worker:
    def __init__(self, comm, generations, ckpt):
        self.comm = comm
        self.generations = generations
        self.generation = 0
        if os.path.isfile(ckpt):
            with open(ckpt, "rb") as f:
                self.population = pickle.load(f)
                self.generation = max([g for g in self.population]) + 1
        else:
            self.population = []

    def step(self):
        return self.comm.bcast({"x": 1.0}, root=0)

    def run_agreed(self):
        self.generation = self.comm.bcast(self.generation, root=0)
        while self.generation < self.generations:
            self.step()
            self.generation += 1

    def run_split(self):
        # Re-bound only where the communicator holds more than this
        # process: with COMM_SELF the worker agrees with nobody but
        # itself (propulate's single-rank islands).
        if self.comm != MPI.COMM_SELF:
            self.generation = self.comm.bcast(self.generation, root=0)
        while self.generation < self.generations:
            if self.comm != MPI.COMM_SELF:
                self.step()
            self.generation += 1

    def run_own(self):
        while self.generation < self.generations:
            self.step()  # want CV301 "whose bounds depend on a file system check of this host"
            self.generation += 1


def main():
    w = Worker(MPI.COMM_WORLD, 10, "ckpt.pickle")
    w.run_agreed()
    w.run_split()
    w.run_own()


if __name__ == "__main__":
    main()

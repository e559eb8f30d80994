# On the MPI backend torch creates a group with MPI_Comm_create over the
# world communicator, which takes a different, disjoint group on each
# rank (MPI 2.2), and then joins a barrier of the whole world: each rank
# may create only its own residue class's group (MPI4DL's torchgems
# comm.py). A gloo group made under the same default group synchronises
# through the store, keyed by its member list, and hangs.
import torch
import torch.distributed as dist


def main():
    dist.init_process_group("mpi")
    size = dist.get_world_size()
    rank = dist.get_rank()
    mp_size = 2
    local_rank = rank % mp_size
    ranks = [(mp_size * i) + local_rank for i in range(size // mp_size)]
    grp = dist.new_group(ranks=ranks)
    t = torch.ones(4)
    dist.all_reduce(t, group=grp)
    cpu = dist.new_group(ranks=ranks, backend="gloo")  # want CV301 "depends on the rank"
    dist.all_reduce(t, group=cpu)


if __name__ == "__main__":
    main()

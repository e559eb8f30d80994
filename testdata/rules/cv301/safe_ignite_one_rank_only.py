# The same handlers with the collective on every rank and only the
# printing filtered stay silent.
import ignite.distributed as idist


def attach(trainer, metrics):
    @trainer.on("EPOCH_COMPLETED")
    def log_epoch(engine):
        total = idist.all_reduce(metrics["loss"])
        if idist.get_rank() == 0:
            print(total)

    @trainer.on("COMPLETED")
    @idist.one_rank_only(with_barrier=True)
    def report(engine):
        print("done")

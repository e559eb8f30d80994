# PyTorch-Ignite: a handler filtered with @idist.one_rank_only() runs on
# one rank, so a collective inside it is issued by that rank alone.
import ignite.distributed as idist


def attach(trainer, metrics):
    @trainer.on("EPOCH_COMPLETED")
    @idist.one_rank_only()
    def log_epoch(engine):
        total = idist.all_reduce(metrics["loss"])  # want CV301 "@idist.one_rank_only"
        print(total)

    def validate(engine):
        if idist.get_rank() == 0:
            idist.barrier()  # want CV301 "barrier on .*idist.get_rank\(\) == 0"

    trainer.add_event_handler("EPOCH_COMPLETED", validate)

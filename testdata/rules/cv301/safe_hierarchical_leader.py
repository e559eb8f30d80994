# Hierarchical collectives: every rank gathers to its node's leader and
# takes the result back on the node's group; only the leaders, the members
# of the inter-node group, exchange on it in between.
import torch
import torch.distributed as dist


def hierarchical_all_to_all(inputs, groups, src_rank):
    intra_node_group, inter_node_group = groups
    outputs = torch.empty_like(inputs)
    if dist.get_rank() == src_rank:
        gathered = [torch.empty_like(inputs) for _ in range(dist.get_world_size(intra_node_group))]
        dist.gather(inputs, gathered, dst=src_rank, group=intra_node_group)
        flat = torch.cat(gathered)
        if inter_node_group is not None:
            exchanged = torch.empty_like(flat)
            dist.all_to_all_single(exchanged, flat, group=inter_node_group)
            flat = exchanged
        dist.scatter(outputs, list(flat.chunk(len(gathered))), src=src_rank, group=intra_node_group)
    else:
        dist.gather(inputs, dst=src_rank, group=intra_node_group)
        dist.scatter(outputs, src=src_rank, group=intra_node_group)
    return outputs



def node_zero_leads(grad, node_group, leader_group):
    # The same protocol with the leader chosen by a constant local rank.
    if dist.get_rank(node_group) == 0:
        dist.reduce(grad, dst=0, group=node_group)
        dist.all_reduce(grad, group=leader_group)
        dist.broadcast(grad, src=0, group=node_group)
    else:
        dist.reduce(grad, dst=0, group=node_group)
        dist.broadcast(grad, src=0, group=node_group)

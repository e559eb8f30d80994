package pyfront

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzLoad runs the whole Python front end — parse, scopes, call graph,
// model, flow — on one mutated module next to a fixed second one, and
// requires it to return (no panic, no hang). The seeds are the shapes the
// rules look for, so mutations stay near the interesting code.
//
//	go test ./pyfront -run '^$' -fuzz '^FuzzLoad$' -fuzztime 60s -fuzzminimizetime 1s
func FuzzLoad(f *testing.F) {
	for _, s := range []string{
		"import threading\nimport torch.distributed as dist\n\ndef w(g):\n    dist.all_reduce(1, group=g)\n\ng = dist.new_group([0, 1])\nthreading.Thread(target=w, args=(g,)).start()\ndist.barrier()\n",
		"import torch\nimport torch.distributed as dist\n\ndef hook(grad):\n    dist.all_reduce(grad)\n    return grad\n\nt = torch.ones(1, requires_grad=True)\nt.register_hook(hook)\nt.sum().backward()\n",
		"import torch.distributed as dist\nif dist.get_rank() == 0:\n    dist.barrier()\nwork = dist.all_reduce(1, async_op=True)\n",
		"import torch\ns = torch.cuda.Stream()\nwith torch.cuda.stream(s):\n    y = x * 2\nz = y + 1\n",
		"from concurrent.futures import ThreadPoolExecutor\nimport other\n\nclass A(other.Base):\n    def run(self):\n        return super().run()\n\nwith ThreadPoolExecutor(4) as ex:\n    ex.map(lambda a: a.run(), [A()])\n",
		"import functools\n\ndef deco(f):\n    @functools.wraps(f)\n    def inner(*a, **k):\n        return f(*a, **k)\n    return inner\n\n@deco\ndef g(x, *, y=1):\n    yield from x\n",
		"from other import *\nx = [f for f in (g, h)]\nd = {'k': x}\nd['k'][0]()\ngetattr(d, 'k')\n",
		"import torch.distributed as dist\n\ndef ag(t, g, async_op=False):\n    h = dist.all_gather_into_tensor(t, t, group=g, async_op=async_op)\n    return t, h\n\nx, _ = ag(1, None, async_op=True)\ny, w = ag(1, None, True)\nw.wait()\n",
		"import os\nimport torch.distributed as dist\nif dist.get_rank() in [0, 1]:\n    g = dist.new_group([0, 1])\nif os.path.exists('f'):\n    dist.barrier()\nok = [os.path.isdir('d')]\ndist.broadcast_object_list(ok)\nif ok[0]:\n    dist.barrier()\n",
		"import torch.distributed as dist\nfrom torch.distributed import _coalescing_manager\n\ndef a2a(o, i, async_op=False):\n    dist.all_to_all(o, i, async_op=async_op)\n    return o\n\nclass F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x, async_op=False):\n        return a2a(x, x, async_op)\n\nF.apply(1, True)\nwith _coalescing_manager(None, async_ops=True) as cm:\n    dist.all_reduce(1, async_op=True)\nreqs = dist.batch_isend_irecv([])\nwhile reqs:\n    reqs.pop().wait()\nw = dist.all_reduce(1, async_op=True)\nif w is not None:\n    w.wait()\n",
		"from typing import Optional, Union\nfrom accelerate import Accelerator\nimport torch.distributed as dist\n\nclass R:\n    eng: 'deepspeed.DeepSpeedEngine'\n    def __init__(self, a: Accelerator, g: Optional[dist.ProcessGroup] = None):\n        self.a = a\n        self.g: dist.ProcessGroup | None = g\n    def s(self, o: Union[Accelerator, None]):\n        if self.a.is_main_process:\n            self.a.save_state(o)\n            self.g.allreduce([1])\n            self.eng.save_checkpoint(o)\n",
		"import torch.distributed as dist\nimport torch.multiprocessing as mp\n\ndef train(rank, ws):\n    if rank not in [-1, 0]:\n        dist.barrier()\n    x = 1\n    if rank == 0:\n        dist.barrier()\n    if not rank > 0:\n        dist.all_reduce(x)\n\nmp.spawn(train, args=(2,), nprocs=2)\n",
		"import torch.distributed as dist\n\ndef save(m, r, *a, flag=False):\n    if r == 0 or flag:\n        dist.barrier()\n\nclass T:\n    def go(self, m):\n        rank = int(dist.get_rank())\n        save(m, rank, flag=not rank)\n        self.go(m, rank)\n",
		"import torch.distributed as dist\nfrom torch.distributed.distributed_c10d import _coalescing_manager as cmgr\n\ndef save(p, *, synchronize=True, sync=None):\n    if not sync:\n        return\n    if synchronize:\n        dist.barrier()\n\ndef fwd(p, synchronize):\n    save(p, synchronize=synchronize, sync=1)\n\nif dist.get_rank() == 0:\n    save(1, synchronize=False)\n    fwd(1, False)\nfor n in set(names) | {'x'}:\n    dist.broadcast(bufs[n], 0)\nfor i in {0, 1}:\n    dist.all_reduce(t[i])\nwith cmgr(None, None, True):\n    dist.all_reduce(1, async_op=True)\n",
		"from detectron2.utils import comm\nfrom mmengine.dist import master_only, collect_results\nimport ignite.distributed as idist\nimport torchmetrics\n\n@master_only\ndef ev(r):\n    return collect_results(r, 2)\n\n@idist.one_rank_only(rank=1, with_barrier=True)\ndef h(e):\n    idist.all_reduce(e)\n\nm = torchmetrics.Accuracy(task='binary')\nwith torch.cuda.stream(s):\n    got = comm.gather(m.compute())\nif comm.is_main_process():\n    comm.synchronize()\n",
		"import torch\n\nclass C:\n    def f(self, p, s):\n        with torch.cuda.stream(s):\n            h = p.all_gather_coalesced([p])\n            x = p.cuda(non_blocking=True)\n        self.reg[p] = h\n        sel = [q for q in p if q]\n        for a in [x, sel]:\n            a.add_(1)\n\n    def g(self, p):\n        self.reg.pop(p).wait()\n",
		"import math, sys\nimport torch\nfrom torch.nn.parallel import DistributedDataParallel as DDP\nfrom accelerate import Accelerator\n\ndef step(m, x):\n    return m(x).sum()\n\ndef train(net, xs, opt, distributed):\n    model = DDP(net, device_ids=[0])\n    acc = Accelerator()\n    m2, opt = acc.prepare(net, opt)\n    for i, (j, x) in enumerate(range(3)):\n        try:\n            loss = step(model, x) + m2.forward(x).sum()\n            if not math.isfinite(loss.item()):\n                sys.exit(1)\n            if torch.isnan(loss).any() or i > 0:\n                continue\n            with model.no_sync():\n                loss.backward()\n            acc.backward(loss)\n        except RuntimeError as e:\n            if not distributed and 'out of memory' in str(e):\n                continue\n            if 'out of memory' not in str(e):\n                raise\n            break\n        except torch.cuda.OutOfMemoryError:\n            if distributed:\n                raise\n",
		"import torch\nimport torch.distributed as dist\nimport lightning.pytorch as pl\nfrom mpi4py import MPI\nfrom torch.cuda.amp import GradScaler\nfrom torch.distributed.fsdp import FullyShardedDataParallel as FSDP\n\nclass M(pl.LightningModule):\n    def validation_step(self, batch, i):\n        d = {}\n        for k in batch['tasks']:\n            d[k] = 1\n        self.log_dict({f'v{k}': v for k, v in d.items()}, sync_dist=True)\n\ndef f(ts, it, peer, pg, qg, flag):\n    b = {}\n    for tp in set(t.type() for t in ts):\n        b[tp] = [t for t in ts if t.type() == tp]\n    for tp in b:\n        dist.all_reduce(b[tp][0])\n    while True:\n        try:\n            x = next(it)\n        except StopIteration:\n            break\n        dist.send(x, dst=peer)\n        dist.recv(x, src=peer)\n    if flag.item():\n        dist.all_reduce(x, group=pg)\n        dist.broadcast(x, 0, group=qg)\n    else:\n        dist.broadcast(x, 0, group=qg)\n        dist.all_reduce(x, group=pg)\n    g = torch.cuda.CUDAGraph()\n    with torch.cuda.graph(g):\n        dist.all_reduce(x)\n    m = FSDP(x)\n    s = GradScaler()\n    s.step(m)\n    MPI.COMM_WORLD.Send(x, dest=peer)\n    MPI.COMM_WORLD.Recv(x, source=peer)\n    comms = [MPI.COMM_WORLD.Dup() for _ in range(2)]\n    dist.destroy_process_group()\n",
		"import os\nimport torch\nimport paddle.distributed as pd\nimport torch.distributed as dist\n\ndef wait_for(b, s):\n    torch.cuda.current_stream().wait_stream(s)\n    s.synchronize()\n\nclass R:\n    def __init__(self):\n        self.s = torch.cuda.Stream()\n        self.b = torch.empty(4, device='cuda')\n    def add(self, g):\n        if self.b is None:\n            full = self.flush()\n        self.b.narrow(0, 0, 1).copy_(g)\n        full.untyped_storage().resize_(0)\n        self.buf[0] = full\n        wait_for(full, self.s)\n        return self.add(g)\n    def flush(self):\n        with torch.cuda.stream(self.s):\n            dist.all_reduce(self.b)\n            x = torch.empty(2)\n        return x\n\ndef setup(local, intra, inter, sh):\n    dist.init_process_group('xccl')\n    dist.barrier()\n    torch.xpu.set_device(local)\n    w = dist.all_reduce(sh, group=intra, async_op=True)\n    dist.all_reduce(sh, group=inter)\n    pd.all_reduce(sh, sync_op=False)\n",
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	mod := filepath.Join(dir, "main.py")
	other := "class Base:\n    def run(self):\n        return 1\n\ndef g():\n    pass\n\ndef h():\n    pass\n"
	for path, src := range map[string]string{mod: "", filepath.Join(dir, "other.py"): other} {
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			if _, err := Load([]string{dir}, Options{Overlay: map[string][]byte{mod: src}}); err != nil {
				t.Errorf("Load: %v", err)
			}
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("Load of %q takes over 20 s", src)
		}
	})
}

package cv302_test

import (
	"strings"
	"testing"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/cv302"
	"github.com/collvet/collvet/rules/ruletest"
)

const src = `def swap(a, b, peer):
    dist.send(a, dst=peer)
    dist.recv(b, src=peer)
`

func exchange(sendPeer, recvPeer string, async bool) *ruletest.Builder {
	b := ruletest.NewBuilder("t.py", src)
	fn := b.Func("t.swap", 1)
	send := b.Site(fn, 2, "torch.distributed.send", rules.OpP2P, nil, b.Main())
	recv := b.Site(fn, 3, "torch.distributed.recv", rules.OpP2P, nil, b.Main())
	if async {
		b.Async(send, "s")
		b.Async(recv, "r")
	}
	b.Prog.Exchanges = append(b.Prog.Exchanges, &rules.Exchange{Func: fn, Send: send, Recv: recv, SendPeer: sendPeer, RecvPeer: recvPeer})
	return b
}

func TestPairExchange(t *testing.T) {
	ds := exchange("peer", "peer", false).Run(cv302.Rule)
	if len(ds) != 1 || ds[0].Pos.Line != 2 {
		t.Fatalf("want one finding at the send (line 2):\n%s", ruletest.Lines(ds))
	}
	d := ds[0]
	for _, want := range []string{"blocking send before its blocking recv", "the same peer (`peer`)", "batch_isend_irecv"} {
		if !strings.Contains(d.Message, want) {
			t.Errorf("message lacks %q: %s", want, d.Message)
		}
	}
	if len(d.Related) != 1 || d.Related[0].Pos.Line != 3 {
		t.Errorf("related: want the receive at line 3, got %+v", d.Related)
	}
}

func TestRingAndWaitedAtOnce(t *testing.T) {
	ds := exchange("(rank + 1) % n", "(rank - 1) % n", true).Run(cv302.Rule)
	if len(ds) != 1 {
		t.Fatalf("want one finding:\n%s", ruletest.Lines(ds))
	}
	for _, want := range []string{"in a ring", "send (waited at once)", "recv (waited at once)"} {
		if !strings.Contains(ds[0].Message, want) {
			t.Errorf("message lacks %q: %s", want, ds[0].Message)
		}
	}
}

func TestNoExchangesNoFindings(t *testing.T) {
	b := ruletest.NewBuilder("t.py", src)
	b.Prog.Exchanges = append(b.Prog.Exchanges, nil, &rules.Exchange{})
	if ds := b.Run(cv302.Rule); len(ds) != 0 {
		t.Fatalf("want silence:\n%s", ruletest.Lines(ds))
	}
}

package callgraph

import (
	"maps"
	"slices"
	"testing"

	"github.com/collvet/collvet/pyfront/parser"
)

func TestAlwaysTrueOptions(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"store_true default True", `
p.add_argument("--use-ema", action="store_true", default=True)
p.add_argument("--amp", action="store_true")
p.add_argument("--nesterov", action="store_true", default=True, dest="nest")
`, []string{"nest", "use_ema"}},
		{"declared twice", `
p.add_argument("--ema", action="store_true", default=True)
p.add_argument("--no-ema", dest="ema", action="store_false")
`, nil},
		{"assigned", `
p.add_argument("--ema", action="store_true", default=True)
args.ema = False
`, nil},
		{"set_defaults", `
p.add_argument("--ema", action="store_true", default=True)
p.set_defaults(ema=False)
`, nil},
		{"dynamic update", `
p.add_argument("--ema", action="store_true", default=True)
for k, v in cfg.items():
    setattr(args, k, v)
`, nil},
		{"args from a dict", `
p.add_argument("--ema", action="store_true", default=True)
args.__dict__.update(cfg)
`, nil},
	}
	for _, c := range cases {
		tree, errs := parser.ParseFile("m.py", []byte(c.src))
		if len(errs) > 0 {
			t.Fatalf("%s: %v", c.name, errs)
		}
		got := slices.Sorted(maps.Keys(alwaysTrueOptions(tree)))
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

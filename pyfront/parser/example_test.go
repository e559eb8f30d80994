package parser_test

import (
	"fmt"

	"github.com/collvet/collvet/pyfront/ast"
	"github.com/collvet/collvet/pyfront/parser"
)

// Parse a file and list the calls it makes, with CPython's positions.
func ExampleParseFile() {
	src := []byte("import torch.distributed as dist\n\ndef step(x):\n    dist.all_reduce(x)\n")
	mod, errs := parser.ParseFile("train.py", src)
	if len(errs) > 0 {
		fmt.Println(errs)
		return
	}
	ast.Inspect(mod, func(n ast.Node) bool {
		if call, ok := n.(*ast.Call); ok {
			if attr, ok := call.Func.(*ast.Attribute); ok {
				fmt.Printf("%d:%d %s\n", call.Lineno, call.ColOffset, attr.Attr)
			}
		}
		return true
	})
	// Output: 4:4 all_reduce
}

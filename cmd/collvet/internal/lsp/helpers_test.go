package lsp

import (
	"errors"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/textpos"
)

var errBroken = errors.New("broken config")

func newMapper(s string) *textpos.Mapper { return textpos.New([]byte(s)) }

func rulesPos(line, col, endLine, endCol int) rules.Pos {
	return rules.Pos{Path: "x.py", Line: line, Col: col, EndLine: endLine, EndCol: endCol}
}

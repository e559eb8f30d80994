// Package plain uses no communication library: the lowering skips it, but
// its file is still one of the analysed files.
package plain

// Twice doubles n.
func Twice(n int) int { return 2 * n }

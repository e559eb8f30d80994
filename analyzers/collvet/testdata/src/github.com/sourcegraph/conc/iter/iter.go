// Package iter is a stub of github.com/sourcegraph/conc/iter for fixtures.
package iter

func ForEach[T any](input []T, f func(*T)) {
	for i := range input {
		f(&input[i])
	}
}

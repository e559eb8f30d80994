//go:build !linux

package pyfront

// hugePages is Linux-only (madvise MADV_HUGEPAGE); elsewhere the touch
// runs at the system's page size and stops at the slow floor.
func hugePages([]byte) {}

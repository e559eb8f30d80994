package pyfront

import (
	"syscall"
	"unsafe"
)

// hugePages asks the kernel to back b with transparent huge pages (with
// THP in "madvise" mode nothing else does: the Go runtime leaves its heap
// to the system default). Only the 2 MB-aligned part of b can be; an
// error (THP not built in) leaves 4 KB pages, which is only slower.
func hugePages(b []byte) {
	const huge = 2 << 20
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	start := (p + huge - 1) &^ (huge - 1)
	end := (p + uintptr(len(b))) &^ (huge - 1)
	if end <= start {
		return
	}
	off := int(start - p)
	_ = syscall.Madvise(b[off:off+int(end-start)], syscall.MADV_HUGEPAGE)
}

package svd

//go:noescape
func kern6x8(k int, a, b, c *float64, ldc int)

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv() (eax, edx uint32)

// hasFMA3 reports AVX2 and FMA with the OS saving the YMM registers: what
// kern6x8 needs.
var hasFMA3 = func() bool {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const fma, osxsave, avx = 1 << 12, 1 << 27, 1 << 28
	if ecx1&(fma|osxsave|avx) != fma|osxsave|avx {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0 // AVX2
}()

// microKernel runs the 6×8 kernel on packed slivers a (k×6) and b (k×8).
func microKernel(k int, a, b, c []float64, ldc int) {
	if hasFMA3 && k > 0 {
		_ = a[6*k-1]
		_ = b[8*k-1]
		_ = c[5*ldc+7]
		kern6x8(k, &a[0], &b[0], &c[0], ldc)
		return
	}
	kern6x8Go(k, a, b, c, ldc)
}

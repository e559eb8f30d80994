# min: 3.13
# PEP 696 type parameter defaults.
type A[T = int] = list[T]
def f[T = int, *Ts = *tuple[int, ...], **P = [int, str]](): pass
class C[T: int = bool]: pass
x = []
def g(a, b=None, *, c): return

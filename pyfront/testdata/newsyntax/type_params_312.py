# min: 3.12
# PEP 695 type parameters and type aliases.
type Point = tuple[float, float]
type ListOrSet[T] = list[T] | set[T]
type Callback[**P, R] = Callable[P, R]
type Shaped[*Ts] = tuple[*Ts]


def first[T](xs: list[T]) -> T:
    return xs[0]


def bounded[T: (int, str), U: Hashable](a: T, b: U) -> dict[U, T]:
    return {b: a}


async def agen[T](x: T) -> AsyncIterator[T]:
    yield x


class Box[T]:
    def get(self) -> T: ...


@dataclass
class Pair[K, V](Generic[K, V], metaclass=Meta):
    key: K
    value: V


type = 1
type.x = type
print(type)
match = [type]

"""Hand-written functions for tests/unit/test_complexity_bound.py: one per statement kind."""

import contextlib
from typing import List


def straight0(a, b):
    return a


def straight3(a, b):
    x0 = a
    x1 = a
    x2 = a
    return a


def straight3_fallthrough(a, b):
    x0 = a
    x1 = a
    x2 = a


def if_else(a, b):
    if a:
        x = 1
    else:
        x = 2
    return x


def if_no_else_and(a, b):
    if a and b:
        a = 1
    return a


def loop_break(a, b):
    for x in a:
        if x:
            break
    return b


def while_else(a, b):
    while a is not None:
        a = a.next
        if b:
            continue
    else:
        b = 0
    return b


def try_except_finally(a, b):
    try:
        a()
    except ValueError:
        b = 1
    finally:
        a = None
    return b


def try_except_star(a, b):
    try:
        a()
    except* ValueError as e:
        b = e
    else:
        b = 2
    return b


def with_stmt(a, b):
    with a as f:
        f.read()
    return b


async def async_stmts(a, b):
    async with a as f, b() as g:
        await f.read(g)
    async for x in a:
        yield x


def comp_if(a, b):
    return [x for x in a if x]


def comps(a, b):
    d = {k: v for k, v in a if k if v}
    s = {x for x in b}
    return sum(x for x in a for y in x), d, s


def bool_and_or(a, b):
    return a and b or a


def bool_in_if(a, b):
    if not (a or b) and a:
        return a
    return b


def expressions(a, b):
    c = (d := a) if b else -b
    e = lambda x=a, *, y=b(): x
    f = f"{a!r:{b}} {a[1:2]}"
    g, *h = a[b], a.b
    return c + d, e, f, g, h


def stores(a, b):
    a.x = b
    a[0] = b
    a.y += 1
    b[1] -= 1
    z: int
    w: "List[int]" = []
    del a.x, a[0], w
    return a


def imports_and_scopes(a, b):
    import os.path
    from os import path as p, sep
    global GLOBAL_ONE
    GLOBAL_ONE = a

    def inner():
        nonlocal b
        b = 1

    return inner


def raises_and_asserts(a, b):
    assert a, "message"
    assert a and b
    if b:
        raise ValueError(a) from b
    raise TypeError


def with_match(a, b):
    match a:
        case 1:
            return b
        case _:
            return a


def with_match_in_class(a, b):
    class K:
        match a:
            case 1:
                x = 1

    return K


def nested_def_small(a, b):
    def inner(c):
        pass

    return inner


def nested_def_big(a, b):
    def inner(c):
        for x in c:
            if x and c:
                try:
                    c = x.y
                except ValueError:
                    return [z for z in x if z]
        return c

    return inner


def nested_class_empty(a, b):
    class K:
        pass

    return K


def nested_class_body(a, b):
    class K:
        x = a
        y = b

    return K


def decorated(a, b):
    @contextlib.contextmanager
    def cm(c: "List[int]" = a, *args: int, **kw: str) -> "List[b()]":
        yield c

    @dataclass(frozen=a)
    class D(List[int], metaclass=type):
        v: int = 0

    return cm, D

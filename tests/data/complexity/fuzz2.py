import sys, typing
from typing import TYPE_CHECKING
def fn0(a, b, *args, o=None, **kw):
    assert not (0 <= b and o.a.b) and z is not None and not ([]), ((o and b)[0])

def fn1(a, b, *args, o=None, **kw):
    0
    y.attr = f"{f(5, (v := 2))}"
    self_ = 3

def fn2(a, b, *args, o=None, **kw):
    a: int = (lambda q=1: f((v := z[0]), [f(None, z) for q in z[0] if (x and b)[0] and callable(b)]))
    global GG
    GG = (lambda q=1: f(((z <= sw), (o.a.b))[(len(self_) > 2)], (f(3, x.attr) if [sys.version_info >= (3, 8)][0] else 7)))

def fn3(a, b, *args, o=None, **kw):
    z.attr = f"{0}"
    z: int = -[((z and b)[0] or sys.platform == "linux") for q in x.attr if (a[0] == 1 or callable(x)).attr]

def fn4(a, b, *args, o=None, **kw):
    return [(5 if self_[0] == 1 and callable(z) or typing.TYPE_CHECKING else [((w := g(a))) for q in 1 if (not y if sys.platform == "linux" else 0)]) for q in y.attr if len(z) > 2]

async def fn5(a, b, *args, o=None, **kw):
    import os.path as self_
    x.attr += [(lambda q=1: (v := b)) for q in 0 if callable(a)]
    z: int = None + {-(v := 4): q for q, r in 3 for s in q if not (f()) if (0 <= a if b.attr is None else True) and a[k] > 2 or True}

async def fn6(a, b, *args, o=None, **kw):
    await f(y)
    with 6 + f"{9}" as b.attr, g() as h:
        await f(f"{(lambda q=1: [0 for q in z.attr if o in (1, 2)] + (callable(y)))}")
    b = 3 + f"{o}"
    await f((v := (5 if not ([len(self_) > 2][0]) else f(9, o[0]))))

def fn7(a, b, *args, o=None, **kw):
    del self_.attr
    while [z or y][0]:
        y, *z = f(5, -(f(7, z.attr), x)[1])
        a, *y = f"{(((y is not None) if (b and b)[0] else (lambda q=1: 0)), self_.attr)[8]}"
    del y.attr
    y = ((lambda q=1: 9) if x <= sw else f((v := (lambda q=1: 1)), 9))

async def fn8(a, b, *args, o=None, **kw):
    assert y == 3
    await f((lambda q=1: f(a.attr, ([0 for q in self_.attr if callable(y)], (o is None))[(not f())])))

def fn9(a, b, *args, o=None, **kw):
    assert not z, -6

async def fn10(a, b, *args, o=None, **kw):
    f(8)
    while o[k] > 2:
        raise E(6)
        o: int = -(b[0] if isinstance(b, int) else f(f(a, 3), a[0] + 0))
    else:
        f"{{{(6 if not x else 4): q for q, r in 5 for s in q if TYPE_CHECKING or o.a.b if self_ in (1, 2)}: q for q, r in o[0] for s in q if ((yield self_)).attr if not self_}}"

def fn11(a, b, *args, o=None, **kw):
    f(b[0])
    z.attr += (v := 7)
    import os.path as y

async def fn12(a, b, *args, o=None, **kw):
    a = f"{(o.a.b and o if o and y else not o)}"

def fn13(a, b, *args, o=None, **kw):
    raise E((callable(b)))
    self_: int = 1

async def fn14(a, b, *args, o=None, **kw):
    o: int = 5 + (lambda q=1: (z[0] if b[0] == 1 else 7)) + o

def fn15(a, b, *args, o=None, **kw):
    b: int = ([o < -1][0] and f(x and y) or o.a.b and 0 <= self_ and sys.version_info >= (3, 8) or a is not None and a.attr)
    del o, x[0], z[k]
    self_: int = a[0]

async def fn16(a, b, *args, o=None, **kw):
    self_: int = b[0]
    a = z[0]

async def fn17(a, b, *args, o=None, **kw):
    o = (o, f((lambda q=1: x[0]) + z, f(a.attr, (7 if [z or y][0] else x[0]))))[(f((v := 9), b + 0) if not (x == 3 and o[0] == 1) else f({1: q for q, r in 7 for s in q if callable(y) if self_ == 3}, b[0] + a))]
    await f(3)

def fn18(a, b, *args, o=None, **kw):
    f(f(-(v := f(a[0], 6)), ([(v := 2) for q in 8 if not (a)], (v := ((x or 1).q)))[[0 + 7 for q in 5 if x[0] == 1 and f(b and y)]]))
    for y in z:
        f(f"{((not f() if TYPE_CHECKING else f()))}", (v := f"{y}"))
        class K({1 + (v := a): q for q, r in a for s in q if o and a in [k for k in b if k] and x in (1, 2) if self_[k] > 2 or b in [k for k in b if k]} + (lambda q=1: (1, 9)[6] + f(None, 2))):
            m = (lambda q=1: 0)
            def meth(self, q={self_: q for q, r in o[0] for s in q if 0 <= y or not ((b or 1).q) and 0 if o == 3}):
                return q
        class K(a + y):
            m = (z == 3)
            def meth(self, q=x[0]):
                return q
        y[0] = 6 + z[0]
    while 0:
        while 0 and ((w := g(y))).attr or not f() and b.attr[0] is None and o.a.b and True:
            self_, *self_ = {(b if callable(b) else b + 4) + 2: q for q, r in 7 for s in q if not (y in (1, 2)) if typing.TYPE_CHECKING}
        with -f(b[0], (f(1, 2) if not (not f()) else (b if x in [k for k in b if k] else 9))) as b, g() as h:
            f(-(not x))
            x.attr += (lambda q=1: (v := y + (a, 5)[o.attr]))
        global GG
        GG = None
    import os.path as o

def fn19(a, b, *args, o=None, **kw):
    import os.path as x
    a, *b = -f(f"{o}", f([6 for q in 3 if f()], (b.attr is None)))
    x, y.attr = (lambda q=1: x)

def fn20(a, b, *args, o=None, **kw):
    @deco(f(7, 1))
    def inner(q=((b is None and b[k] > 2 or 0 or x + 1 > 0) if (o and b)[0] else o)) -> int:
        return q and q

def fn21(a, b, *args, o=None, **kw):
    f((v := (o if True and sys.platform == "linux" else (y[0] == 1))), 8)

async def fn22(a, b, *args, o=None, **kw):
    return (y.attr, 3)[(not (len(o) > 2 or True))]
    assert ((y and b)[0] and 0 if [x or y][0] else not b) and (z in [k for k in b if k]).attr and (w := g(o))

async def fn23(a, b, *args, o=None, **kw):
    assert a[k] > 2

def fn24(a, b, *args, o=None, **kw):
    for x in [1, 2]:
        continue
        return -x + f"{f(None, b)}"
        class K([(o.a.b) for q in 3 if (w := g(a))]):
            m = ((lambda q=1: 4), 6)[f"{-((y or 1).q)}"]
            def meth(self, q=4):
                return q

async def fn25(a, b, *args, o=None, **kw):
    @deco(y.attr + {(lambda q=1: 2): q for q, r in 6 for s in q if ((not f() if 0 else [a or y][0]) if len(a) > 2 else b is not None and b.attr and len(a) > 2) if f() and 'k' in y and typing.TYPE_CHECKING})
    def inner(q=(v := a)) -> int:
        return q and q
    while f(x):
        import os.path as z

async def fn26(a, b, *args, o=None, **kw):
    z.attr += f"{a}"

def fn27(a, b, *args, o=None, **kw):
    x
    b[0] = self_[0]
    del x.attr
    assert o.a.b or a if a and y else not a or not (sys.version_info >= (3, 8)) and not (True) or self_ is None or (w := g(o))

async def fn28(a, b, *args, o=None, **kw):
    del x.attr

def fn29(a, b, *args, o=None, **kw):
    del z.attr

def fn30(a, b, *args, o=None, **kw):
    match [([7 for q in b if self_ < -1], f((y.attr is None), {2: q for q, r in x[0] for s in q if sys.platform == "linux" if y.attr[0] is None}))[3] for q in a if 0 <= b]:
        case str() as s:
            self_.attr
            a = 6
            a = (v := y)
    if (x + 1 > 0 or not (o.attr[0] is None) if [o or y][0] and 0 else [[x.attr is None][0]][0]) and not (TYPE_CHECKING) and sys.version_info >= (3, 8):
        class K(0):
            m = (lambda q=1: (self_ is None and (w := g(self_)) or self_ <= sw))
            def meth(self, q=9):
                return q
    b.attr += (lambda q=1: (v := f(f"{None}", f(a, x.attr))))
    with 1 as z, g() as h:
        assert TYPE_CHECKING or len(z) > 2 and (x and b)[0] or o.a.b and x is not None and x.attr and (o[k] > 2 if [] else self_[0] == 1), 7
        assert not a or not (z is not None and z.attr), (v := y.attr)
        x = {{f"{f(7, a[0])}": q for q, r in o for s in q if o <= sw if not a and (z and b)[0] and True or True}: q for q, r in 1 for s in q if sys.version_info >= (3, 8) if x and self_ is None and True and self_[0] == 1 or y in (1, 2)}

async def fn31(a, b, *args, o=None, **kw):
    o = (callable(b) or (w := g(self_)))

async def fn32(a, b, *args, o=None, **kw):
    assert [(not (z[k] > 2 or f(b)) if (isinstance(a, int) or a < -1).attr else o in [k for k in b if k])][0], z
    import os.path as b
    for y.attr in [1, 2]:
        for a in (1,):
            async with f(a, a) as z, g() as h:
                async with 6 as a, g() as h:
                    del x.attr
                    (len(z) > 2 or self_.attr is None and b in [k for k in b if k] and a[k] > 2)
            while [[[y or y][0]][0]][0]:
                while 0 <= b:
                    f(((TYPE_CHECKING and y is None if sys.platform == "linux" else (self_ and b)[0])), ([o for q in 9 if sys.platform == "linux"] + (True), y)[4])
                    @deco(y)
                    def inner(q=f([(v := f(3, 2)) for q in 9 if not (self_.attr is None) and callable(a)], f"{f(4, z.attr) + [a for q in 9 if z is not None]}")) -> int:
                        return q and q
            if not (0) and o.a.b:
                self_.attr = {[3 for q in o if a is None]: q for q, r in None for s in q if not (not f()) if [(not f()).attr][0]}
                self_.attr += 4
            try:
                for z[0] in (1,):
                    async with f"{([len(b) > 2][0])}" + 7 as self_, g() as h:
                        x.attr += {f"{(x == 3)}": q for q, r in 9 for s in q if o == 3 if [len(b) > 2 or b and (x or 1).q][0]}
                else:
                    (lambda q=1: -(b.attr is None))
                    z
            except E:
                for b, *z in (1,):
                    -o[0]
                    while [[self_ in [k for k in b if k] or sys.version_info >= (3, 8) and (o in (1, 2) if self_ is not None and self_.attr else [b or y][0])][0]][0]:
                        import os.path as self_
                import os.path as y
            except (E, F) as e1:
                if not (self_ is not None):
                    6
                elif x[0] == 1 and (len(o) > 2 if sys.platform == "linux" and [self_ or y][0] or (w := g(self_)) else z == 3):
                    a.attr += 0
                    if 0 <= o:
                        a.attr += 2
                        x: int = a.attr
                    else:
                        return 4
                        f(y.attr)
                z.attr += f(None + b, (v := self_[0]))

async def fn33(a, b, *args, o=None, **kw):
    assert [y or y][0], 3

def fn34(a, b, *args, o=None, **kw):
    o.attr
    self_ = (o.a.b) + ({None: q for q, r in 6 for s in q if x is None if not (sys.platform == "linux")} if [o or y][0] else ({b: q for q, r in 9 for s in q if 'k' in z if x + 1 > 0} if [self_ or y][0] else (not f())))
    f(((v := 9), ((2, 8)[9] + o[0], (o.a.b and callable(a)))[(lambda q=1: 6)])[f(2, (v := (6 if self_[k] > 2 else 6)))])

async def fn35(a, b, *args, o=None, **kw):
    f(0)
    f(f((f"{a}" if (y[k] > 2 if (yield a) else 0) else (lambda q=1: b[0])), a[0] + y[0]), f(2, o))
    f(y + [1 for q in x[0] if (y + 1 > 0 if sys.version_info >= (3, 8) else not b) or not (o <= sw)])

async def fn36(a, b, *args, o=None, **kw):
    f(((y.attr if isinstance(y, int) and z is not None else (None, 9)[b.attr]) + (3 if z + 1 > 0 else (o if True else z)), ({6: q for q, r in 2 for s in q if f(o and y) and (w := g(o)) if not ((b or 1).q)}, f((b == 3), (x if (b and b)[0] else 1)))[(v := (b.attr, y.attr)[4])])[((self_ + 7, (b if True else self_[0]))[None] if o < -1 else f(((self_ and b)[0]), {o.attr: q for q, r in 5 for s in q if callable(self_) if b.attr is None}))])

def fn37(a, b, *args, o=None, **kw):
    assert b[k] > 2
    del y.attr

def fn38(a, b, *args, o=None, **kw):
    @deco([(f(8 + 7, {self_[0]: q for q, r in a for s in q if self_[0] == 1 if not z}) if 0 else a) for q in 8 if not ([[]][0])])
    def inner(q=f"{(len(self_) > 2)}") -> int:
        return q and q

def fn39(a, b, *args, o=None, **kw):
    (f((4 if 0 <= a else None), {5: q for q, r in 4 for s in q if y.attr is None if [y or y][0]} + f"{5}") if not (b and (w := g(y)) or True) else {[(2 if sys.platform == "linux" else b[0]) for q in 2 if o is not None and o.attr or 0 <= x]: q for q, r in a for s in q if (not f() or o.a.b).attr if f(x) and y is not None and y.attr or f(self_ and y)})



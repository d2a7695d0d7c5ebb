def fn0(a, b, *args, o=None, **kw):
    y.attr += (o in (1, 2) and self_ == 3 and len(self_) > 2 and not x or isinstance(a, int) and [(w := g(a))][0])

def fn1(a, b, *args, o=None, **kw):
    a = -x
    (lambda q=1: (not (not z) or self_ in (1, 2) or not b))

def fn2(a, b, *args, o=None, **kw):
    x, b.attr = (isinstance(x, int) and (w := g(b)) and y[0] == 1 and y in (1, 2) and (o and x is not None if isinstance(x, int) else not (a.attr is None)))
    assert len(y) > 2
    a.attr = (lambda q=1: {(lambda q=1: {8: q for q, r in None for s in q if 'k' in x if z is None}): q for q, r in 3 for s in q if b == 3 or y.attr is None or self_ is not None or a if isinstance(z, int) and not self_ and ((w := g(o)) if f(a) else b is None)})
    z: int = f"{None}"

def fn3(a, b, *args, o=None, **kw):
    try:
        b = [b.attr + (v := 4) + (v := a.attr) for q in 4 if z[0] == 1]
    except (E, F) as e0:
        o.attr = 0
    while not ((w := g(z))):
        f(f"{((8 + None if not (callable(z)) else z) if a in (1, 2) else -x)}")
        for a.attr in (1,):
            if z == 3 and self_ in (1, 2) and ((z is not None).attr).attr:
                z, z.attr = ((f(x) if f(x) and b is None else len(o) > 2))
        o.attr += self_[0]

def fn4(a, b, *args, o=None, **kw):
    assert not o
    f((v := (o, 1)[((a is None) if not (o is None) else 3)]))
    del a.attr
    match (v := (v := a)):
        case A() | B() | C():
            y.attr += 0
            f(x)
            (v := (a.attr is None and 'k' in x and not o or 'k' in o))

def fn5(a, b, *args, o=None, **kw):
    y, *o = 3

def fn6(a, b, *args, o=None, **kw):
    match 1 + (v := (lambda q=1: y.attr)):
        case 1:
            return (f((lambda q=1: f(4, 9)), f(a[0], (v := self_))) if not (z is not None and not x and not (y is None)) else f(y, [(b, 2)[8] for q in x[0] if callable(z) or self_[0] == 1]))
            for z in (1,):
                raise E(1)
                try:
                    a = f"{3}"
                    (x.attr is None or f(self_))
                finally:
                    for y, self_.attr in (1,):
                        continue
                    @deco(self_[0])
                    def inner(q=None) -> int:
                        return q and q
                f([{[y for q in o if isinstance(o, int) and o is not None]: q for q, r in z for s in q if (w := g(o)) if z.attr is None and (w := g(z))} for q in 6 if (not z and x in (1, 2) if b is None and y is None else z is not None) and x or z is not None and y is None])

def fn7(a, b, *args, o=None, **kw):
    a.attr += [(lambda q=1: [f(3, 6) for q in 4 if [self_ is None][0]]) for q in z if self_[0] == 1]

def fn8(a, b, *args, o=None, **kw):
    a: int = 2

def fn9(a, b, *args, o=None, **kw):
    assert f(x)
    assert o is None, (v := 1)
    assert o[0] == 1 or a

def fn10(a, b, *args, o=None, **kw):
    return f(b[0], (v := z[0]))

def fn11(a, b, *args, o=None, **kw):
    assert len(x) > 2, 1
    while not (('k' in self_).attr):
        global GG
        GG = (lambda q=1: f(((z is not None), (callable(z)))[7 + z[0]], -(x if y == 3 else o)))
        b.attr = 9
    a[0] = f(((lambda q=1: 8) + [o[0] for q in 3 if isinstance(x, int)] if ('k' in a or callable(z)).attr else 9), 1)
    assert callable(a), y + 9

def fn12(a, b, *args, o=None, **kw):
    self_ = 7
    x = (6 if (f(o) if isinstance(y, int) else not o) else 5)

def fn13(a, b, *args, o=None, **kw):
    raise E(1)
    for a in f([(v := y) for q in z.attr if f(a)], o[0]):
        x: int = f((v := 7), f(o, f(x, b + z)))
        x.attr += y.attr
        if len(o) > 2:
            for b.attr in (v := y[0]):
                continue
            f(f"{5}")
        else:
            if (self_[0] == 1 if [y.attr is None or not b][0] and (not a if not (callable(a)) else a) else (self_ in (1, 2) and (w := g(a))).attr and (x and b is not None).attr):
                try:
                    z.attr = f"{(((isinstance(x, int)).attr if callable(x) and o else not (not z)))}"
                except E:
                    for x.attr in (1,):
                        x = (f(f"{z}", (v := f(b.attr, 7))) if callable(x) else f((callable(self_)), 7))
                        return 2
                    try:
                        y, *x = (z.attr is None)
                        y = f((4 if len(x) > 2 or a[0] == 1 and isinstance(z, int) and a is None else f((6 if b is not None else 6), f(o, 2))), [0 for q in 6 if (x[0] == 1).attr] + (v := None))
                    except E:
                        self_.attr = ((len(y) > 2) if o == 3 else 7)
                        z = 0
                else:
                    f"{[0 for q in z.attr if x is None or f(o) or (w := g(y)) or a]}"
                while ((w := g(a)) or (w := g(b)) if not (not y) else (a.attr is None if z else len(o) > 2)) or not (a == 3) or (callable(y)).attr or callable(a):
                    f(f"{8}")
                    a.attr += 9
            else:
                raise E(6)
                if o and isinstance(self_, int) and not self_ or x in (1, 2) and not (a and y in (1, 2)):
                    if ((w := g(x)) if not z and z is not None and len(o) > 2 or not (not (z == 3)) else a == 3 and len(b) > 2 or callable(b) and callable(y) and isinstance(x, int)):
                        assert x is not None and b is None, z
                    elif self_ in (1, 2):
                        f([{-(lambda q=1: 5): q for q, r in 0 for s in q if [[z.attr is None][0]][0] if not ((w := g(a))) and callable(x) and x == 3} for q in 4 if [a is not None][0]])
                        import os.path as y
                    else:
                        f((f((y.attr + 0 if not (x == 3) else x + None), [1 for q in 7 if x[0] == 1]) if 'k' in x or f(a) else (lambda q=1: -None) + 4))
                    match a[0]:
                        case [a, *rest]:
                            del z.attr
                            f((lambda q=1: 3))
                        case [a, *rest] if isinstance(self_, int):
                            x = {z: q for q, r in o for s in q if z[0] == 1 if 'k' in y or z is not None}
                        case 1:
                            self_.attr += f(-(lambda q=1: self_[0]), (6 if [o in (1, 2) and not o][0] else 0))
                else:
                    a = [([(6 if not o else 4) for q in 3 if z is not None or self_ is not None], (isinstance(z, int)))[6] for q in 8 if not o]
                    global GG
                    GG = ((y or 'k' in o) if y is not None or len(a) > 2 else (v := self_[0]))
    assert [self_ == 3 and isinstance(self_, int)][0], ((lambda q=1: 0) if a[0] == 1 else f(0, 4))
    b = 0

def fn14(a, b, *args, o=None, **kw):
    class K(x):
        m = f((v := self_.attr), {8: q for q, r in 1 for s in q if not b if y is None})
        def meth(self, q=(lambda q=1: -f(6, 5) + {(4, z)[z]: q for q, r in 3 for s in q if len(a) > 2 or z if x is not None and b is None})):
            return q

def fn15(a, b, *args, o=None, **kw):
    (f(([z[0] for q in a if self_ is not None] if self_[0] == 1 else y), f"{(4 if isinstance(z, int) else 2)}") if not (len(o) > 2) and f(z) else (lambda q=1: ([y in (1, 2)][0])))
    y = f"{b}"
    f({8: q for q, r in 9 for s in q if len(z) > 2 or not b or a is None or [self_ is not None][0] and ((w := g(o))).attr if not (f(z) and not x and o or a == 3)})

def fn16(a, b, *args, o=None, **kw):
    o = ((w := g(b)) and not (not a) and y[0] == 1)

def fn17(a, b, *args, o=None, **kw):
    del z.attr
    x = self_.attr

def fn18(a, b, *args, o=None, **kw):
    f((((v := 6) if not z or len(a) > 2 else 9) if (isinstance(y, int)).attr or len(z) > 2 or f(z) or not o else ((lambda q=1: [0 for q in o if len(self_) > 2]), b)[{[4 for q in 3 if callable(b)]: q for q, r in a for s in q if callable(b) if not (callable(b))}]))
    x.attr = (9, [(4 if x is not None else o) + -x for q in 8 if isinstance(y, int)])[((1 if callable(x) else 7), z[0])[-9] + 6 + 3]
    with [y.attr for q in o[0] if [f(o)][0] or len(y) > 2 and ('k' in o or (w := g(z)) if [self_.attr is None][0] else z is not None or len(x) > 2)] as b, g() as h:
        o.attr += f"{(['k' in a][0])}"
        @deco((v := [f({z.attr: q for q, r in b.attr for s in q if 'k' in o if f(a)}, o) for q in 4 if (isinstance(b, int) if a == 3 else f(x) or (w := g(y)))]))
        def inner(q=4) -> int:
            return q and q
        global GG
        GG = f"{y[0]}"
    assert [(b == 3).attr][0] or (f(o) if (w := g(y)) else isinstance(a, int)) and callable(self_) or y is not None, 5

def fn19(a, b, *args, o=None, **kw):
    x = (v := {((lambda q=1: 5), f(self_, 1))[(lambda q=1: self_)]: q for q, r in 5 for s in q if [y in (1, 2) and 'k' in o][0] if not b})
    match f(b, 1):
        case {"k": v, **kw} if (o == 3 or x in (1, 2) and (y in (1, 2) if len(a) > 2 else callable(z)) if self_ or len(self_) > 2 and b[0] == 1 or (w := g(self_)) or 'k' in a and f(a) and z else f(y)):
            o[0] = f(([1 for q in self_ if f(self_)] if z is not None or not x else (self_ if 'k' in b else 5)) + z, self_)

def fn20(a, b, *args, o=None, **kw):
    if [o == 3 and z[0] == 1 or [y == 3][0] or callable(self_)][0]:
        self_ = 2
    else:
        match 0:
            case (A() | B()) as w if b.attr is None:
                try:
                    if x is None:
                        class K({-(x is not None and isinstance(b, int)): q for q, r in x.attr for s in q if a[0] == 1 or len(b) > 2 or a if ((w := g(z)) if o == 3 else not ('k' in b))}):
                            m = (((a in (1, 2) if z or callable(b) else not (o is None))) if self_ is not None and (b).attr and y == 3 else ((w := g(a))))
                            def meth(self, q=(x[0] == 1)):
                                return q
                    else:
                        for self_ in None:
                            a = -y
                            o[0] = (f(a.attr, z.attr), b.attr)[9]
                        f(x)
                except:
                    z = self_.attr
                finally:
                    try:
                        class K(self_.attr):
                            m = ((None if 'k' in x else (5 if not (x) else (o.attr, self_)[4])) if [len(y) > 2][0] else f(z.attr, 6))
                            def meth(self, q=-(lambda q=1: 7)):
                                return q
                        self_, y.attr = (lambda q=1: ('k' in a))
                    except (E, F) as e0:
                        z, *y = f(3, (lambda q=1: ((0, 8)[0] if not x or 'k' in self_ else (lambda q=1: o.attr))))
                        y.attr = 1
                    except (E, F) as e1:
                        match 5:
                            case A() | B() | C() if [b[0] == 1][0] and self_ in (1, 2) and y.attr is None or o is None or not (z.attr is None and (w := g(b))) or callable(z):
                                z.attr += ([(f(6, 6), f(o, 8))[(x if f(y) else 9)] for q in 0 if ([y in (1, 2)][0]).attr], [(len(a) > 2) for q in o.attr if [(w := g(o))][0] and (a is None).attr])[a[0]]
                                assert not (not (o in (1, 2)))
                            case [a, *rest] if ((isinstance(self_, int)).attr).attr:
                                f(f"{x}")
                            case (A() | B()) as w:
                                z = z
                        assert (f(y) if not (o is not None and callable(x) and x.attr is None) else f(a)), 7
                    except E:
                        try:
                            assert x is None
                            f(self_)
                        except (E, F) as e0:
                            a.attr += {(lambda q=1: (v := o)): q for q, r in 3 for s in q if callable(x) if [o.attr is None and b][0]} + {3: q for q, r in 2 for s in q if (not x).attr if [(w := g(b))][0]} + (5, ((w := g(x))))[(v := a)]
                        except (E, F) as e1:
                            b = ([(x.attr if z else -0) for q in 1 if (isinstance(self_, int) and o is None if isinstance(y, int) else x is not None and self_.attr is None)] if b.attr is None else 4)
                        f({f([x[0] for q in a.attr if not o], (v := 7)): q for q, r in x for s in q if o[0] == 1 if z[0] == 1})
                while 'k' in x or y is not None or callable(a) and o == 3 or z[0] == 1 and a is not None:
                    @deco(-3)
                    def inner(q=o[0]) -> int:
                        return q and q
                    match [[self_ for q in 5 if (o.attr is None).attr and self_ is None and y] for q in 0 if a == 3 and z is not None]:
                        case {"k": v, **kw}:
                            while not (z is not None or len(x) > 2) and o:
                                return f(2, f"{(9, None)[8]}") + (v := [f(z, a.attr) for q in x[0] if y is None and isinstance(b, int)])
                else:
                    class K(y):
                        m = self_[0]
                        def meth(self, q=9):
                            return q
                f(([-(lambda q=1: 6) for q in self_[0] if o is None and not (len(self_) > 2)] if y else ((5 + self_ if f(x) else b) if y in (1, 2) and z.attr is None or callable(o) else ((x.attr is None if isinstance(y, int) else x[0] == 1)))))
                self_[0] = (v := ((lambda q=1: (7 if a is not None else 0)), 9)[(not (f(a)))])
            case {"k": v, **kw}:
                @deco(((x, (lambda q=1: 1))[f"{a.attr}"] if f(self_) or 'k' in b or not (callable(o)) else (not y and callable(a))) + y)
                def inner(q=(isinstance(b, int) or a is not None or z is None and (w := g(a)) and b == 3)) -> int:
                    return q and q
        while o is None:
            while (a is None if not (isinstance(y, int) and isinstance(self_, int)) else (self_ is not None or y is not None).attr) and 'k' in y:
                0
                2
            else:
                @deco(6)
                def inner(q=-9) -> int:
                    return q and q
                with {4: q for q, r in y[0] for s in q if not (not a and z and (w := g(x))) if a and (isinstance(y, int) if a is None else x[0] == 1) and not (a == 3)} as a, self_.attr, g() as h:
                    with 2 as x, g() as h:
                        f(f((lambda q=1: a) + (v := x) + 3, o.attr))
                        y[0] = (-{b[0]: q for q, r in 8 for s in q if not ('k' in b) if b[0] == 1 or isinstance(x, int)} if len(a) > 2 else x[0])
            if b == 3:
                if 'k' in o:
                    break
                elif [x.attr is None][0] or callable(o):
                    while z[0] == 1 or x.attr is None:
                        import os.path as b
                        del self_.attr
                    else:
                        continue
                        o.attr = f"{9}" + 8 + 1
                continue
            else:
                for x in [1, 2]:
                    try:
                        a: int = 4
                    finally:
                        y: int = f((o is not None and 'k' in x), f(-y, y.attr))
                self_ = (v := [f(a.attr, (o if self_ is not None else x[0])) for q in 3 if a == 3])
            f(('k' in x))
    class K((v := [(f(self_) and not a) for q in 2 if (b in (1, 2) if self_[0] == 1 else 'k' in x) or o])):
        m = None
        def meth(self, q=a):
            return q
    f(8)
    z: int = 6

def fn21(a, b, *args, o=None, **kw):
    x = (lambda q=1: [(v := f"{0}") for q in x[0] if not a or 'k' in b or self_ is not None])
    --((not x if callable(b) else callable(o)))
    assert not ((w := g(a)) and z[0] == 1 or z and x == 3), 0
    for a, *self_ in [1, 2]:
        [(((v := b) if not (x is None) else (9 if y.attr is None else self_)) if not (not a or o in (1, 2)) else ((b.attr is None) if x is None else o[0])) for q in a[0] if x[0] == 1 or z in (1, 2) and (w := g(b)) or 'k' in x]

def fn22(a, b, *args, o=None, **kw):
    if [o is None and x.attr is None][0]:
        f(f(1, (x in (1, 2) or a)))

def fn23(a, b, *args, o=None, **kw):
    z.attr = 5
    o.attr = self_.attr

def fn24(a, b, *args, o=None, **kw):
    self_.attr += (lambda q=1: {-o.attr + 5: q for q, r in z for s in q if z is not None if y.attr is None or 'k' in x})

def fn25(a, b, *args, o=None, **kw):
    if not (a is None) or not ((not (self_ == 3) if o == 3 else y == 3)):
        o.attr += (lambda q=1: y.attr)
        @deco(a[0])
        def inner(q=((v := f(f(7, z[0]), ('k' in x))) if y in (1, 2) else -(not (y)))) -> int:
            return q and q
    else:
        global GG
        GG = ((not (o[0] == 1) if (y == 3 if z is None else isinstance(z, int)) else 'k' in z and z is None) and b is not None)
    a: int = y.attr
    while self_ is not None:
        with f"{((1, y.attr)[-1] if not ((x in (1, 2) if z.attr is None else y[0] == 1)) else 6)}" as y, g() as h:
            if len(y) > 2:
                z: int = 9
            else:
                x.attr = f"{[3 for q in b if a == 3]}"
        f(f((y, 7)[[8 for q in o[0] if x is not None]], y + ((lambda q=1: 0) if b is not None else b + 9)))
        try:
            a, z.attr = 8
            with [{(9, y.attr)[(y.attr if (w := g(x)) else b.attr)]: q for q, r in b[0] for s in q if not self_ and 'k' in z or f(y) if (w := g(x))} for q in 1 if not ((w := g(b)) and not (callable(o)))] as y, g() as h:
                self_: int = 5
            for y, *self_ in (1,):
                for x.attr in [1, 2]:
                    with f((lambda q=1: (lambda q=1: {b: q for q, r in 3 for s in q if z[0] == 1 if self_ == 3})), f"{(v := y.attr + 6)}") as b, g() as h:
                        return 0
        finally:
            class K(f(a, z[0])):
                m = [((self_ is None) if len(a) > 2 or self_ is None else f"{2}") + o + (not y) for q in y if [callable(y)][0]]
                def meth(self, q=(isinstance(x, int))):
                    return q
            a = (lambda q=1: -(isinstance(self_, int)))
    else:
        match {-(lambda q=1: 8) + a: q for q, r in 9 for s in q if self_ == 3 or o or 'k' in o and not (b.attr is None) and y in (1, 2) and (w := g(z)) if (f(b) if o in (1, 2) else [isinstance(y, int) or z][0])}:
            case P(x=0, y=yy):
                for a in [1, 2]:
                    match 6:
                        case [a, *rest] if (w := g(y)):
                            try:
                                f(f(o[0], (f"{[x for q in x if y[0] == 1]}", 0)[[[z for q in a if a is None] for q in 3 if not b]]))
                                continue
                            finally:
                                f(x + [[[z for q in 9 if a[0] == 1] for q in o if isinstance(y, int) or not self_] for q in y.attr if z in (1, 2) or callable(a) and z is not None])
                                import os.path as self_
                for b in [1, 2]:
                    for b.attr in 7:
                        z.attr = f((f([z.attr for q in None if o[0] == 1], -x) if [o == 3][0] else [(v := y[0]) for q in 6 if len(y) > 2]), (8 if y == 3 else f({self_: q for q, r in 6 for s in q if x[0] == 1 if o is not None}, f"{6}")))
                        o[0] = {(lambda q=1: (o, f"{z[0]}")[f"{o.attr}"]): q for q, r in 9 for s in q if (not ((self_ is None).attr) if not (callable(a)) or b and y else z is None and (w := g(y)) and y in (1, 2)) if y is not None}
                    while x or not x and self_ is not None and f(b) or z[0] == 1 or not y:
                        self_: int = f"{(x.attr is None) + 1}"
                        with 9 as b, g() as h:
                            f(([(lambda q=1: z) for q in a if len(b) > 2 and not b] if [(z[0] == 1 if f(z) else not b) or (w := g(a))][0] else (not (o in (1, 2)) and o is not None)))
            case x if ((w := g(a)) if not (o is None or x == 3 and callable(y) and y.attr is None) else 'k' in z):
                o.attr += f(5, [(a, f(b[0], 6))[f(4, b)] for q in o if not (o == 3) or f(z)])
        self_ = f((lambda q=1: f(self_.attr, f(z.attr, 0))), f"{{6: q for q, r in 9 for s in q if b.attr is None if (x.attr is None).attr}}")

def fn26(a, b, *args, o=None, **kw):
    x.attr = f"{f(a, [1 for q in 4 if (self_[0] == 1 if b[0] == 1 else len(b) > 2)])}"
    global GG
    GG = None
    assert (o[0] == 1).attr, {[9 for q in y[0] if (o in (1, 2) if isinstance(self_, int) else len(o) > 2) and [isinstance(a, int)][0]]: q for q, r in None for s in q if b is not None and 'k' in y and isinstance(z, int) or not z or b if (not (callable(b) and o is None) if z[0] == 1 and len(a) > 2 else not ([(w := g(a))][0]))}

def fn27(a, b, *args, o=None, **kw):
    b: int = 3
    class K(y):
        m = f(8, -([o[0] for q in x[0] if isinstance(y, int)] if callable(z) or (w := g(z)) else 2))
        def meth(self, q=f((8, (o in (1, 2) and z is not None))[2], (((w := g(y))) if x is None and isinstance(self_, int) else f(5, 7)) + 4 + f(7, o[0]))):
            return q
    z = (x in (1, 2))
    assert callable(x) or z or self_ in (1, 2)

def fn28(a, b, *args, o=None, **kw):
    a = 6

def fn29(a, b, *args, o=None, **kw):
    if z is not None:
        f((isinstance(o, int) and len(a) > 2 or (f(z)).attr and not (y.attr is None)))
        y: int = f([-((w := g(b))) for q in 3 if f(o) or o == 3 and callable(x) or len(y) > 2], 9)
        (v := (f(y) and 'k' in y and x is not None))
        with 0 as self_.attr, g() as h:
            while not (z.attr is None and 'k' in a and not (callable(z))):
                @deco(((3, (v := (v := 7)))[(None, 0)[f"{b}"]], 2)[5])
                def inner(q=f((v := 8), o[0]) + (isinstance(self_, int) or y in (1, 2))) -> int:
                    return q and q
    if o is None:
        z = 3
        [((v := (y.attr if x is None else 8)) if f(x) else 2) for q in o if (w := g(z))]
        a + (not ((w := g(o)) and not b))
        if y == 3:
            return x
            while a in (1, 2):
                o = (lambda q=1: y)
                try:
                    if f(o):
                        f(o)
                        import os.path as z
                except (E, F) as e0:
                    f(-f((lambda q=1: f(None, z.attr)), 3))
                    self_ = ([o is not None or z is not None][0] and self_)
                else:
                    match 1:
                        case (A() | B()) as w:
                            self_ = z.attr
                        case {"k": v, **kw}:
                            raise E(({2: q for q, r in None for s in q if f(o) or b in (1, 2) and not self_ if (not y and callable(o)).attr}, ([a == 3 or a is None][0]))[(v := (b if b is None else 1))])
                            a = (not (y in (1, 2) and len(z) > 2)) + (f((9, a.attr)[7], 0), [(self_.attr if z in (1, 2) else 4) for q in x[0] if not o and f(x)])[self_.attr]
            else:
                match -f"{(v := [z[0] for q in 9 if o is None])}":
                    case str() as s if [(w := g(b))][0]:
                        match 4:
                            case 1 if callable(o) and [((w := g(o))).attr][0]:
                                return (lambda q=1: 8)
                                b.attr += f"{(-9, f(f(a[0], y), (o == 3)))[a.attr]}"
                            case A() | B() | C() if ('k' in x if x in (1, 2) else y == 3):
                                f(3)
                            case str() as s:
                                self_.attr += ([[6 for q in self_ if y is None] for q in 6 if not ([not x][0])] if len(o) > 2 else 5)
                        try:
                            x: int = z[0]
                        except E:
                            f(f(8, f"{b}"))
                    case str() as s if not ((z in (1, 2)).attr or callable(self_)):
                        for z[0] in 8:
                            f(-(o if not (not b and not a) else {[self_.attr for q in b if len(b) > 2]: q for q, r in 5 for s in q if z and len(b) > 2 if x}))
    else:
        raise E(x[0])
    o, x.attr = 6



#!/usr/bin/env python3
"""Seeded random differential-test generator for TLX.

Every case is a small C11 function that
  1. fills its input arrays with deterministic pseudo-random data,
  2. computes one TLX op through the dummy-function API of <tlx.h>
     (load/typeinfo -> op -> typeinfo on the result -> strided store),
  3. computes the same op with the C reference oracle (tlx_ref_* from
     <tlxrt.h>) on descriptors of the very same arrays, and
  4. compares the two output buffers element by element - the whole buffer,
     so elements a strided store must not touch are checked too.

(seed, case index, op list) -> program is a pure function: case i draws all
its choices from random.Random("<seed>:<i>"), so any case can be regenerated
alone (--case) as a standalone reproducer.

Usage:
  gen.py --seed S --first F --count N [--ops a,b,...] -o batch.c
  gen.py --seed S --case I [--ops ...] -o repro.c
  gen.py --list-ops
Only the Python 3 standard library is used. docs/testing.md describes the
design and the tolerances.
"""

import argparse
import random
import sys

# --------------------------------------------------------------------------
# Element types.
#   name: (C type, tlx_dtype, bytes, is_float, min, max)
DTYPES = {
    "i8": ("int8_t", "TLX_I8", 1, False, -(1 << 7), (1 << 7) - 1),
    "u8": ("uint8_t", "TLX_I8", 1, False, 0, (1 << 8) - 1),
    "i16": ("int16_t", "TLX_I16", 2, False, -(1 << 15), (1 << 15) - 1),
    "u16": ("uint16_t", "TLX_I16", 2, False, 0, (1 << 16) - 1),
    "i32": ("int32_t", "TLX_I32", 4, False, -(1 << 31), (1 << 31) - 1),
    "u32": ("uint32_t", "TLX_I32", 4, False, 0, (1 << 32) - 1),
    "i64": ("int64_t", "TLX_I64", 8, False, -(1 << 63), (1 << 63) - 1),
    "f16": ("_Float16", "TLX_F16", 2, True, None, None),
    "bf16": ("__bf16", "TLX_BF16", 2, True, None, None),
    "f32": ("float", "TLX_F32", 4, True, None, None),
    "f64": ("double", "TLX_F64", 8, True, None, None),
}
INT_TYPES = ["i8", "i16", "i32", "i64"]
FLOAT_TYPES = ["f16", "bf16", "f32", "f64"]
ANY_TYPES = INT_TYPES + FLOAT_TYPES

# Relative size of one unit in the last place, per float element type.
ULP = {"f16": 2.0 ** -10, "bf16": 2.0 ** -7, "f32": 2.0 ** -23,
       "f64": 2.0 ** -52}
# Precision a float op accumulates in (design: f16/bf16 computed in float).
ACC_EPS = {"f16": 2.0 ** -23, "bf16": 2.0 ** -23, "f32": 2.0 ** -23,
           "f64": 2.0 ** -52}

# Fill modes (must match tlxd_fill in the prelude).
FILL_FULL = 0      # integers: full range with extremes; floats: dyadic
FILL_DYADIC = 1    # floats k/8, |k| <= 16: sums of products are exact
FILL_POS = 2       # floats in [1/8, 8]: log/sqrt domain
FILL_WIDE = 3      # floats uniform in [-4, 4], all mantissa bits
FILL_UNIT = 4      # floats k/4 with 2 <= |k| <= 6: short exact products
FILL_SMALLINT = 5  # integers in [-8, 8]

UNARY = {  # op -> (tlx_unary_op, element class, fill mode)
    "relu": ("TLX_RELU", "any", FILL_FULL),
    "tanh": ("TLX_TANH", "float", FILL_WIDE),
    "sigmoid": ("TLX_SIGMOID", "float", FILL_WIDE),
    "sin": ("TLX_SIN", "float", FILL_WIDE),
    "cos": ("TLX_COS", "float", FILL_WIDE),
    "exp": ("TLX_EXP", "float", FILL_WIDE),
    "exp2": ("TLX_EXP2", "float", FILL_WIDE),
    "log": ("TLX_LOG", "float", FILL_POS),
    "log2": ("TLX_LOG2", "float", FILL_POS),
    "log10": ("TLX_LOG10", "float", FILL_POS),
    "sqrt": ("TLX_SQRT", "float", FILL_POS),
    "fabs": ("TLX_FABS", "float", FILL_WIDE),
    "floor": ("TLX_FLOOR", "float", FILL_WIDE),
    "ceil": ("TLX_CEIL", "float", FILL_WIDE),
}
EXACT_UNARY = {"relu", "fabs", "floor", "ceil"}

REDUCE = {  # op -> (tlx_reduce_op, element class)
    "reduce.max": ("TLX_REDUCE_MAX", "any"),
    "reduce.min": ("TLX_REDUCE_MIN", "any"),
    "reduce.add": ("TLX_REDUCE_ADD", "any"),
    "reduce.mul": ("TLX_REDUCE_MUL", "any"),
    "reduce.and": ("TLX_REDUCE_AND", "int"),
    "reduce.or": ("TLX_REDUCE_OR", "int"),
    "reduce.xor": ("TLX_REDUCE_XOR", "int"),
}

MMA = {  # op -> (tlx_mma_kind, op1 unsigned, op2 unsigned)
    "umma": ("TLX_UMMA", True, True),
    "smma": ("TLX_SMMA", False, False),
    "usmma": ("TLX_USMMA", True, False),
    "summa": ("TLX_SUMMA", False, True),
}

ALL_OPS = (["copy", "matmul", "contract"] + list(MMA) + ["convolution"] +
           list(UNARY) + ["broadcast"] + list(REDUCE) +
           ["reshape.block", "reshape.permute", "transpose", "pad", "concat",
            "tovector", "totensor"])

# --no-small-vectors: redraw a case until every vector value it declares is
# larger than 8 bytes and has other than 3 elements. x86-64 passes and
# returns smaller vectors coerced to i8/i16/i32/double, and clang accesses
# 3-element vectors as 4-element ones; the front end sees through both
# (regress-small-vector-result.c, regress-vec3-result-typeinfo.c), so CI
# runs without the flag. It remains for telling a failure in these
# patterns apart from one in the op.
NO_SMALL_VECTORS = False

# --amx-shapes: matmul and mma draw only the element types Intel AMX
# computes (i8 x i8 -> i32 in every signedness, bf16/f16 x bf16/f16 -> f32)
# and larger M, N, K (tile tails: 16 rows, 64 bytes of K).
AMX_SHAPES = False
AMX_MAX_N = 100  # --amx-max-n: N up to here (several 16-column tiles and tails)

MAX_ELEMS = 360      # elements per tensor (keeps vectors and runtime small)
EXTENTS = [1, 1, 2, 2, 3, 3, 4, 5, 6, 7]


def cname(op):
    """C dummy-function name of an op."""
    if op == "totensor":
        return "vector_totensor"
    return "tensor_" + op.replace(".", "_")


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def unsigned_of(dt):
    return {"i8": "u8", "i16": "u16", "i32": "u32"}.get(dt, dt)


# --------------------------------------------------------------------------
class Tensor:
    """One tensor in memory: logical extents, layout, padding, BLAS strides.

    layout[i] is the logical dimension storage dimension i holds;
    shape[i] (storage extent) = logical[layout[i]].
    blas[i] (i >= 1) is the element distance between consecutive indices of
    storage dim i-1 (0: packed); blas[0] is always 0 (design.md).
    """

    def __init__(self, name, dt, logical, layout=None, padding=None,
                 blas=None, offset=0, fill=FILL_FULL, form="load"):
        self.name = name
        self.dt = dt
        self.logical = list(logical)
        r = len(self.logical)
        self.layout = list(layout) if layout is not None else list(range(r))
        self.padding = list(padding) if padding is not None else [0] * r
        self.blas = list(blas) if blas is not None else [0] * r
        self.offset = offset
        self.fill = fill
        self.form = form  # "load" (strided memory) or "value" (vector)

    @property
    def rank(self):
        return len(self.logical)

    @property
    def shape(self):
        return [self.logical[l] for l in self.layout]

    @property
    def count(self):
        return prod(self.logical)

    def elem_strides(self):
        """Element stride of every storage dim (tlx_tensor.strides)."""
        sh = self.shape
        r = len(sh)
        st = [0] * r
        st[r - 1] = 1
        for i in range(r - 1, 0, -1):
            st[i - 1] = self.blas[i] if self.blas[i] else sh[i] * st[i]
        return st

    def span(self):
        """Elements from the first to one past the last addressed one."""
        st = self.elem_strides()
        return sum((e - 1) * s for e, s in zip(self.shape, st)) + 1

    def bufsize(self):
        return self.offset + self.span() + 3  # slack after the region


def rand_shape(rng, rank, cap=MAX_ELEMS):
    for _ in range(100):
        s = [rng.choice(EXTENTS) for _ in range(rank)]
        if prod(s) <= cap:
            return s
    return [1] * rank


def rand_perm(rng, r):
    p = list(range(r))
    if rng.random() < 0.35:
        return p
    rng.shuffle(p)
    return p


def rand_padding(rng, r):
    if rng.random() < 0.5:
        return [0] * r
    return [rng.choice([0, 0, 1, 2, 3]) for _ in range(r)]


def rand_blas(rng, shape):
    """BLAS leading dimensions: packed, or larger than packed."""
    r = len(shape)
    blas = [0] * r
    if rng.random() < 0.4 or r == 1:
        return blas
    inner = 1
    for i in range(r - 1, 0, -1):
        packed = shape[i] * inner
        c = rng.random()
        if c < 0.4:
            blas[i] = 0
            inner = packed
        elif c < 0.55:
            blas[i] = packed  # explicit, equal to packed
            inner = packed
        else:
            blas[i] = packed + rng.randint(1, 5)
            inner = blas[i]
    return blas


def place(rng, t, allow_value=True):
    """Random memory placement of a tensor whose logical shape is fixed."""
    t.layout = rand_perm(rng, t.rank)
    t.padding = rand_padding(rng, t.rank)
    if allow_value and rng.random() < 0.25:
        t.form = "value"
        t.blas = [0] * t.rank
        t.offset = 0
    else:
        t.form = "load"
        t.blas = rand_blas(rng, t.shape)
        t.offset = rng.choice([0, 0, 0, 1, 3])
    return t


def place_out(rng, t):
    """The result: random layout/padding (typeinfo) and store strides."""
    place(rng, t, allow_value=False)
    return t


# --------------------------------------------------------------------------
def ivec(xs):
    return "((tlxd_i%d){%s})" % (len(xs), ", ".join(str(int(x)) for x in xs))


def i64arr(xs):
    return "(const int64_t[]){%s}" % ", ".join(str(int(x)) for x in xs)


def c_scalar(dt, v):
    ct = DTYPES[dt][0]
    if DTYPES[dt][3]:
        return "(%s)%r" % (ct, float(v))
    if dt == "i64":
        return "(int64_t)%dLL" % v
    return "(%s)%d" % (ct, v)


class Case:
    """One generated test case."""

    def __init__(self, seed, index, ops):
        self.seed = seed
        self.index = index
        if "needed_vtypes" not in self.__dict__:
            self.needed_vtypes = set()
        self.rng = random.Random("%d:%d" % (seed, index))
        # An op entry may exclude element types: "matmul!bf16!f16".
        entry = self.rng.choice(ops).split("!")
        self.op, excluded = entry[0], set(entry[1:])
        shared = self.needed_vtypes
        for _ in range(100):
            self.needed_vtypes = set()
            self.build()
            if NO_SMALL_VECTORS and any(
                    n * DTYPES[dt][2] <= 8 or n == 3
                    for dt, n in self.needed_vtypes):
                continue
            if excluded and any(t.dt in excluded or
                                unsigned_of(t.dt) in excluded
                                for t in self.inputs + [self.out]):
                continue
            break
        shared.update(self.needed_vtypes)
        self.needed_vtypes = shared

    def build(self):
        """Draws the case's shapes and writes its C code."""
        self.inputs = []
        self.out = None
        self.out_dt = None
        self.rtol = 0.0
        self.atol = 0.0
        self.tlx = []      # C statements computing the TLX result
        self.oracle = []   # C statements computing the oracle result
        self.protos = []   # prototypes of suffixed dummy functions
        self.desc = ""
        self.nproto = 0
        getattr(self, "gen_" + self.op.replace(".", "_"))()

    # -- helpers ----------------------------------------------------------
    @property
    def fn(self):
        return "case_%d" % self.index

    def proto(self, op, ret, params):
        name = "%s_d%d_%d" % (cname(op), self.index, self.nproto)
        self.nproto += 1
        self.protos.append("%s %s(%s);" % (ret, name, ", ".join(params)))
        return name

    def vtype(self, dt, n):
        return "tlxd_%s_%d" % (dt, n)

    def token_of(self, t):
        """C statements producing a token for input t; returns the name."""
        tok = "tok_" + t.name
        if t.form == "load":
            self.tlx.append(
                "int %s = tensor_load(%s + %d, %s, %s, %s, %s);" %
                (tok, t.name, t.offset, ivec(t.shape), ivec(t.layout),
                 ivec(t.padding), ivec(t.blas)))
        else:
            vt = self.vtype(t.dt, t.count)
            self.needed_vtypes.add((t.dt, t.count))
            self.tlx.append("%s v_%s; memcpy(&v_%s, %s, %d);" %
                            (vt, t.name, t.name, t.name,
                             t.count * DTYPES[t.dt][2]))
            self.tlx.append(
                "int %s = tensor_typeinfo(v_%s, %s, %s, %s);" %
                (tok, t.name, ivec(t.shape), ivec(t.layout),
                 ivec(t.padding)))
        return tok

    def call_op(self, op, args, params):
        """Calls a data-returning op; types its result and stores it."""
        o = self.out
        vt = self.vtype(o.dt, o.count)
        self.needed_vtypes.add((o.dt, o.count))
        fn = self.proto(op, vt, params)
        self.tlx.append("%s r = %s(%s);" % (vt, fn, ", ".join(args)))
        self.tlx.append("int tok_r = tensor_typeinfo(r, %s, %s, %s);" %
                        (ivec(o.shape), ivec(o.layout), ivec(o.padding)))
        self.store("tok_r")

    def store(self, tok):
        o = self.out
        self.tlx.append("tensor_store(out_t + %d, %s, %s);" %
                        (o.offset, tok, ivec(o.blas)))

    def desc_init(self, t, buf=None):
        """Oracle descriptor d_<name> over the same array."""
        buf = buf or t.name
        d = "d_" + t.name
        self.oracle.append(
            "tlx_tensor %s; TLXD_CHECK(tlx_tensor_init(&%s, %s + %d, %s, %d,"
            " %s, %s, %s, %s));" %
            (d, d, buf, t.offset, DTYPES[t.dt][1], t.rank, i64arr(t.shape),
             i64arr(t.layout), i64arr(t.padding), i64arr(t.elem_strides())))
        return "&" + d

    def new_input(self, dt, logical, fill=FILL_FULL, allow_value=True):
        t = Tensor("in%d" % len(self.inputs), dt, logical, fill=fill)
        place(self.rng, t, allow_value)
        self.inputs.append(t)
        return t

    def new_output(self, dt, logical):
        t = Tensor("out", dt, logical)
        place_out(self.rng, t)
        self.out = t
        self.out_dt = dt
        return t

    def set_sum_tolerance(self, dt, k):
        """A K-term sum of products of values |x| <= 2 rounded to dt."""
        if DTYPES[dt][3]:
            self.rtol = ULP[dt]
            self.atol = 4.0 * k * k * ACC_EPS[dt]

    def oracle_out(self):
        return self.desc_init(self.out, "out_r")

    # -- ops ----------------------------------------------------------------
    def gen_copy(self):
        dt = self.rng.choice(ANY_TYPES + ["u8"])
        r = self.rng.randint(1, 6)
        a = self.new_input(dt, rand_shape(self.rng, r))
        tok = self.token_of(a)
        # A token is stored in its own storage order: same shape/layout.
        o = Tensor("out", dt, a.logical, a.layout, a.padding)
        o.blas = rand_blas(self.rng, o.shape)
        o.offset = self.rng.choice([0, 2])
        self.out, self.out_dt = o, dt
        self.store(tok)
        self.oracle.append("TLXD_REF(tlx_ref_copy(%s, %s));" %
                           (self.desc_init(a), self.oracle_out()))
        self.desc = "copy %s %s form=%s" % (dt, a.logical, a.form)

    def matmul_types(self):
        if AMX_SHAPES:
            return self.rng.choice([("bf16", "bf16", "f32"),
                                    ("f16", "f16", "f32"),
                                    ("i8", "i8", "i32")])
        c = self.rng.random()
        if c < 0.7:
            dt = self.rng.choice(ANY_TYPES)
            return dt, dt, dt
        return self.rng.choice([("i8", "i8", "i32"), ("i16", "i16", "i32"),
                                ("i8", "i8", "i16"), ("i32", "i32", "i64"),
                                ("f16", "f16", "f32"),
                                ("bf16", "bf16", "f32"),
                                ("f32", "f32", "f64")])

    def mk_dims(self, nbatch):
        batch = [self.rng.choice([1, 2, 3]) for _ in range(nbatch)]
        if AMX_SHAPES:
            # Sometimes M around 64: the shared kernels' second plan ends
            # there, and share-kernels=auto shares M = 64.
            m = (self.rng.choice([63, 64, 65]) if self.rng.random() < 0.2
                 else self.rng.randint(1, 40))
            return (batch[:1] + [1] * (nbatch - 1), m,
                    self.rng.randint(1, 100),
                    self.rng.randint(1, AMX_MAX_N))
        m, k, n = (self.rng.randint(1, 9), self.rng.randint(1, 12),
                   self.rng.randint(1, 9))
        return batch, m, k, n

    def gen_matmul(self):
        ta, tb, to = self.matmul_types()
        r = self.rng.choice([2, 2, 2, 3, 4])
        batch, m, k, n = self.mk_dims(r - 2)
        fill = FILL_DYADIC
        a = self.new_input(ta, batch + [m, k], fill)
        b = self.new_input(tb, batch + [k, n], fill)
        o = self.new_output(to, batch + [m, n])
        ta_, tb_ = self.token_of(a), self.token_of(b)
        self.call_op("matmul", [ta_, tb_], ["int", "int"])
        self.oracle.append("TLXD_REF(tlx_ref_matmul(%s, %s, %s));" %
                           (self.desc_init(a), self.desc_init(b),
                            self.oracle_out()))
        self.set_sum_tolerance(to, k)
        self.desc = "matmul %sx%s->%s %s x %s" % (ta, tb, to, a.logical,
                                                  b.logical)

    def mma(self, op):
        kind, u1, u2 = MMA[op]
        tin, tacc = ("i8", "i32") if AMX_SHAPES else \
            self.rng.choice([("i8", "i32"), ("i8", "i32"),
                                     ("i16", "i32"), ("i32", "i32"),
                                     ("i8", "i16"), ("i32", "i64"),
                                     ("i64", "i64")])
        t1 = unsigned_of(tin) if u1 else tin
        t2 = unsigned_of(tin) if u2 else tin
        r = self.rng.choice([2, 2, 2, 3])
        batch, m, k, n = self.mk_dims(r - 2)
        acc = self.new_input(tacc, batch + [m, n])
        a = self.new_input(t1, batch + [m, k])
        b = self.new_input(t2, batch + [k, n])
        self.new_output(tacc, batch + [m, n])
        toks = [self.token_of(acc), self.token_of(a), self.token_of(b)]
        self.call_op(op, toks, ["int", "int", "int"])
        self.oracle.append("TLXD_REF(tlx_ref_mma(%s, %s, %s, %s, %s));" %
                           (kind, self.desc_init(acc), self.desc_init(a),
                            self.desc_init(b), self.oracle_out()))
        self.desc = "%s acc=%s %s x %s %s x %s" % (op, tacc, t1, t2,
                                                   a.logical, b.logical)

    def gen_umma(self):
        self.mma("umma")

    def gen_smma(self):
        self.mma("smma")

    def gen_usmma(self):
        self.mma("usmma")

    def gen_summa(self):
        self.mma("summa")

    def gen_contract(self):
        rng = self.rng
        dt = rng.choice(ANY_TYPES)
        for _ in range(100):
            ra, rb = rng.randint(1, 4), rng.randint(1, 4)
            m = rng.randint(1, min(ra, rb))
            if ra + rb - 2 * m >= 1:
                break
        else:
            ra, rb, m = 2, 2, 1
        axes_a = rng.sample(range(ra), m)
        axes_b = rng.sample(range(rb), m)
        la = [rng.choice([1, 2, 3, 4]) for _ in range(ra)]
        lb = [rng.choice([1, 2, 3, 4]) for _ in range(rb)]
        for x, y in zip(axes_a, axes_b):
            lb[y] = la[x]
        free_a = [la[i] for i in range(ra) if i not in axes_a]
        free_b = [lb[i] for i in range(rb) if i not in axes_b]
        k = prod(la[i] for i in axes_a)
        a = self.new_input(dt, la, FILL_DYADIC)
        b = self.new_input(dt, lb, FILL_DYADIC)
        self.new_output(dt, free_a + free_b)
        toks = [self.token_of(a), self.token_of(b)]
        self.call_op("contract", toks + [ivec(axes_a), ivec(axes_b)],
                     ["int", "int", "tlxd_i%d" % m, "tlxd_i%d" % m])
        self.oracle.append(
            "TLXD_REF(tlx_ref_contract(%s, %s, %d, %s, %s, %s));" %
            (self.desc_init(a), self.desc_init(b), m, i64arr(axes_a),
             i64arr(axes_b), self.oracle_out()))
        self.set_sum_tolerance(dt, k)
        self.desc = "contract %s %s x %s axes %s %s" % (dt, la, lb, axes_a,
                                                        axes_b)

    def gen_convolution(self):
        rng = self.rng
        dt = rng.choice(ANY_TYPES)
        ns = rng.choice([1, 1, 2, 2, 3])
        # 16 channels or more: one GEMM per kernel tap over the input in
        # place (tlx-nd-to-2d's shifted GEMMs; channels last: one per output
        # row and kernel row); 4-8 channels: receptive-field rows (kernel
        # width x channels) on both sides of the 16 elements from which
        # channels-last data takes a GEMM per output row and kernel row;
        # fewer: im2col.
        band = rng.random()
        wide, mid = band < 0.3, 0.3 <= band < 0.5
        for _ in range(200):
            nb, o = rng.randint(1, 2), rng.randint(1, 3)
            c = rng.randint(16, 20) if wide else \
                rng.randint(4, 8) if mid else rng.randint(1, 3)
            ins = [rng.randint(1, 8 if ns < 3 else 5) for _ in range(ns)]
            ks = [rng.randint(1, 3) for _ in range(ns)]
            two = rng.random() < 0.25
            st = [1] * ns if two else [rng.randint(1, 3) for _ in range(ns)]
            idl = [1] * ns if two else [rng.choice([1, 1, 2]) for _ in
                                        range(ns)]
            kdl = [1] * ns if two else [rng.choice([1, 1, 2, 3]) for _ in
                                        range(ns)]
            outs = []
            for i in range(ns):
                ein = (ins[i] - 1) * idl[i] + 1
                ek = (ks[i] - 1) * kdl[i] + 1
                outs.append((ein - ek) // st[i] + 1 if ein >= ek else 0)
            if min(outs) >= 1 and \
                    prod([nb, c] + ins) <= \
                    MAX_ELEMS * (8 if wide else 3 if mid else 1) and \
                    prod([nb, o] + outs) <= MAX_ELEMS:
                break
        else:
            nb, c, o, ins, ks, st, idl, kdl, outs, two = \
                1, 1, 1, [3] * ns, [1] * ns, [1] * ns, [1] * ns, [1] * ns, \
                [3] * ns, True
        x = self.new_input(dt, [nb, c] + ins, FILL_DYADIC)
        if rng.random() < 0.4:
            # Channels last with dense pixels (N, spatial.., C), as the
            # shifted and row-tap GEMMs read the input in place.
            x.layout = [0] + list(range(2, 2 + ns)) + [1]
            if x.form == "load":
                x.blas = rand_blas(rng, x.shape)
                x.blas[-1] = 0
        w = self.new_input(dt, [o, c] + ks, FILL_DYADIC)
        self.new_output(dt, [nb, o] + outs)
        toks = [self.token_of(x), self.token_of(w)]
        if two:
            self.call_op("convolution", toks, ["int", "int"])
        else:
            # 0 entries read as 1 (design.md): use them now and then.
            def z(v):
                return [0 if (e == 1 and rng.random() < 0.3) else e
                        for e in v]
            vt = "tlxd_i%d" % ns
            self.call_op("convolution",
                         toks + [ivec(z(st)), ivec(z(idl)), ivec(z(kdl))],
                         ["int", "int", vt, vt, vt])
        self.oracle.append(
            "TLXD_REF(tlx_ref_convolution(%s, %s, %s, %s, %s, %s));" %
            (self.desc_init(x), self.desc_init(w), i64arr(st), i64arr(idl),
             i64arr(kdl), self.oracle_out()))
        self.set_sum_tolerance(dt, c * prod(ks))
        self.desc = ("convolution %s in %s kernel %s strides %s indil %s "
                     "kdil %s%s" % (dt, x.logical, w.logical, st, idl, kdl,
                                    " (2-operand)" if two else ""))

    def unary(self, op):
        kind, cls, fill = UNARY[op]
        dt = self.rng.choice(ANY_TYPES if cls == "any" else FLOAT_TYPES)
        r = self.rng.randint(1, 6)
        a = self.new_input(dt, rand_shape(self.rng, r), fill)
        self.new_output(dt, a.logical)
        self.call_op(op, [self.token_of(a)], ["int"])
        self.oracle.append("TLXD_REF(tlx_ref_unary(%s, %s, %s));" %
                           (kind, self.desc_init(a), self.oracle_out()))
        if DTYPES[dt][3] and op not in EXACT_UNARY:
            # libm vs. vectorised/approximated code: a few ulps of float
            # for f32/f64; f16/bf16 results may round the other way.
            self.rtol = max(ULP[dt], 16 * ACC_EPS[dt])
            self.atol = self.rtol
        self.desc = "%s %s %s" % (op, dt, a.logical)

    def gen_broadcast(self):
        rng = self.rng
        dt = rng.choice(ANY_TYPES)
        if rng.random() < 0.3:
            # Research-prototype form: fill the operand's shape.
            a = self.new_input(dt, rand_shape(rng, rng.randint(1, 6)))
            self.new_output(dt, a.logical)
            if DTYPES[dt][3]:
                v = rng.randint(-16, 16) / 8.0
                fill = "TLXD_REF(tlx_ref_fill_f64(%s, %r));"
            else:
                v = rng.randint(-100, 100)
                fill = "TLXD_REF(tlx_ref_fill_i64(%s, %d));"
            self.call_op("broadcast", [self.token_of(a), c_scalar(dt, v)],
                         ["int", DTYPES[dt][0]])
            self.oracle.append(fill % (self.oracle_out(), v))
            self.desc = "broadcast(scalar) %s %s value %r" % (dt, a.logical,
                                                               v)
            return
        ro = rng.randint(1, 6)
        lo = rand_shape(rng, ro, 200)
        ri = rng.randint(1, ro)
        li = [e if rng.random() < 0.6 else 1 for e in lo[ro - ri:]]
        a = self.new_input(dt, li)
        self.new_output(dt, lo)
        self.call_op("broadcast", [self.token_of(a)], ["int"])
        self.oracle.append("TLXD_REF(tlx_ref_broadcast(%s, %s));" %
                           (self.desc_init(a), self.oracle_out()))
        self.desc = "broadcast %s %s -> %s" % (dt, li, lo)

    def reduce(self, op):
        rng = self.rng
        kind, cls = REDUCE[op]
        dt = rng.choice(ANY_TYPES if cls == "any" else INT_TYPES)
        r = rng.randint(1, 5)
        li = rand_shape(rng, r, 240)
        if op == "reduce.mul" and DTYPES[dt][3]:
            fill = FILL_UNIT
        elif DTYPES[dt][3]:
            fill = FILL_DYADIC
        else:
            fill = FILL_FULL
        for _ in range(50):
            win = [rng.randint(1, e) for e in li]
            if op != "reduce.mul" or not DTYPES[dt][3] or prod(win) <= 8:
                break
        else:
            win = [1] * r
        st = [rng.choice([1, 1, 2, 3]) for _ in range(r)]
        lo = [(e - w) // s + 1 for e, w, s in zip(li, win, st)]
        a = self.new_input(dt, li, fill)
        self.new_output(dt, lo)
        self.call_op(op, [self.token_of(a), ivec(win), ivec(st)],
                     ["int", "tlxd_i%d" % r, "tlxd_i%d" % r])
        self.oracle.append("TLXD_REF(tlx_ref_reduce(%s, %s, %s, %s, %s));" %
                           (kind, self.desc_init(a), i64arr(win), i64arr(st),
                            self.oracle_out()))
        if op in ("reduce.add", "reduce.mul"):
            self.set_sum_tolerance(dt, prod(win))
        self.desc = "%s %s %s window %s strides %s" % (op, dt, li, win, st)

    def gen_transpose(self):
        rng = self.rng
        dt = rng.choice(ANY_TYPES)
        if rng.random() < 0.3:
            # One-operand form: logical transpose of the last two dims.
            r = rng.randint(2, 5)
            a = self.new_input(dt, rand_shape(rng, r))
            lo = a.logical[:-2] + [a.logical[-1], a.logical[-2]]
            self.new_output(dt, lo)
            self.call_op("transpose", [self.token_of(a)], ["int"])
            self.oracle.append("TLXD_REF(tlx_ref_transpose(%s, NULL, %s));" %
                               (self.desc_init(a), self.oracle_out()))
            self.desc = "transpose(1-operand) %s %s" % (dt, a.logical)
            return
        r = rng.randint(1, 6)
        a = self.new_input(dt, rand_shape(rng, r))
        perm = list(range(r))
        rng.shuffle(perm)
        o = self.new_output(dt, a.logical)
        o.layout = perm
        o.blas = rand_blas(rng, o.shape)
        self.call_op("transpose", [self.token_of(a), ivec(perm)],
                     ["int", "tlxd_i%d" % r])
        self.oracle.append("TLXD_REF(tlx_ref_transpose(%s, %s, %s));" %
                           (self.desc_init(a), i64arr(perm),
                            self.oracle_out()))
        self.desc = "transpose %s %s layout %s -> %s" % (dt, a.logical,
                                                         a.layout, perm)

    def gen_pad(self):
        rng = self.rng
        dt = rng.choice(ANY_TYPES)
        r = rng.randint(1, 5)
        li = rand_shape(rng, r, 120)
        low = [rng.choice([0, 0, 1, 2]) for _ in range(r)]
        high = [rng.choice([0, 0, 1, 3]) for _ in range(r)]
        a = self.new_input(dt, li)
        self.new_output(dt, [e + l + h for e, l, h in zip(li, low, high)])
        v = rng.randint(-16, 16) / 4.0 if DTYPES[dt][3] else \
            rng.randint(-100, 100)
        self.call_op("pad", [self.token_of(a), ivec(low), ivec(high),
                             c_scalar(dt, v)],
                     ["int", "tlxd_i%d" % r, "tlxd_i%d" % r, DTYPES[dt][0]])
        self.oracle.append("TLXD_REF(tlx_ref_pad(%s, %s, %s, %r, %s));" %
                           (self.desc_init(a), i64arr(low), i64arr(high),
                            float(v), self.oracle_out()))
        self.desc = "pad %s %s low %s high %s value %r" % (dt, li, low, high,
                                                          v)

    def gen_concat(self):
        rng = self.rng
        dt = rng.choice(ANY_TYPES)
        r = rng.randint(1, 5)
        la = rand_shape(rng, r, 150)
        axis = rng.randrange(r)
        lb = list(la)
        lb[axis] = rng.choice([1, 2, 3, 5])
        a = self.new_input(dt, la)
        b = self.new_input(dt, lb)
        lo = list(la)
        lo[axis] += lb[axis]
        self.new_output(dt, lo)
        self.call_op("concat", [self.token_of(a), self.token_of(b),
                                str(axis)], ["int", "int", "int"])
        self.oracle.append("TLXD_REF(tlx_ref_concat(%s, %s, %d, %s));" %
                           (self.desc_init(a), self.desc_init(b), axis,
                            self.oracle_out()))
        self.desc = "concat %s %s + %s axis %d" % (dt, la, lb, axis)

    def gen_reshape_permute(self):
        rng = self.rng
        dt = rng.choice(ANY_TYPES)
        a = self.new_input(dt, rand_shape(rng, rng.randint(1, 5)))
        # Same element count, another factorisation.
        n = a.count
        lo = []
        rest = n
        ro = rng.randint(1, 5)
        for i in range(ro - 1):
            divs = [d for d in range(1, rest + 1) if rest % d == 0]
            d = rng.choice(divs)
            lo.append(d)
            rest //= d
        lo.append(rest)
        self.new_output(dt, lo)
        self.call_op("reshape.permute", [self.token_of(a)], ["int"])
        self.oracle.append("TLXD_REF(tlx_ref_reshape_permute(%s, %s));" %
                           (self.desc_init(a), self.oracle_out()))
        self.desc = "reshape.permute %s %s -> %s" % (dt, a.logical, lo)

    def gen_reshape_block(self):
        rng = self.rng
        dt = rng.choice(ANY_TYPES)
        # blocks[i] divides logical extent i: [.., E_i, ..] ->
        # [.., E_i/b_i, .., b_i ..] (outer dims, then the block dims of
        # every b_i > 1 in order).
        r = rng.randint(1, 3)
        li = rand_shape(rng, r, 200)
        blocks = []
        for e in li:
            divs = [d for d in range(1, e + 1) if e % d == 0]
            blocks.append(rng.choice(divs))
        # A block of 1 adds no dimension (oracle and docs/ops.md).
        lo = [e // b for e, b in zip(li, blocks)] + [b for b in blocks
                                                     if b > 1]
        a = self.new_input(dt, li)
        self.new_output(dt, lo)
        self.call_op("reshape.block", [self.token_of(a), ivec(blocks)],
                     ["int", "tlxd_i%d" % r])
        self.oracle.append("TLXD_REF(tlx_ref_reshape_block(%s, %s, %s));" %
                           (self.desc_init(a), i64arr(blocks),
                            self.oracle_out()))
        self.desc = "reshape.block %s %s blocks %s" % (dt, li, blocks)

    def gen_tovector(self):
        rng = self.rng
        dt = rng.choice(ANY_TYPES)
        a = self.new_input(dt, rand_shape(rng, rng.randint(1, 6)))
        # The vector holds the tensor's elements in logical row-major order,
        # whatever its layout (docs/decisions.md).
        o = Tensor("out", dt, a.logical)
        self.out, self.out_dt = o, dt
        vt = self.vtype(dt, a.count)
        self.needed_vtypes.add((dt, a.count))
        fn = self.proto("tovector", vt, ["int"])
        tok = self.token_of(a)
        self.tlx.append("%s r = %s(%s);" % (vt, fn, tok))
        self.tlx.append("memcpy(out_t, &r, %d);" %
                        (a.count * DTYPES[dt][2]))
        self.oracle.append("TLXD_REF(tlx_ref_copy(%s, %s));" %
                           (self.desc_init(a), self.oracle_out()))
        self.desc = "tovector %s %s layout %s" % (dt, a.logical, a.layout)

    def gen_totensor(self):
        rng = self.rng
        dt = rng.choice(ANY_TYPES)
        # vec holds the logical row-major elements (the inverse of
        # tovector); the token is stored with totensor's shape and layout.
        a = Tensor("in0", dt, rand_shape(rng, rng.randint(1, 6)))
        a.form = "vector"
        self.inputs.append(a)
        o = Tensor("out", dt, a.logical, rand_perm(rng, a.rank),
                   rand_padding(rng, a.rank))
        o.blas = rand_blas(rng, o.shape)
        o.offset = rng.choice([0, 1])
        self.out, self.out_dt = o, dt
        vt = self.vtype(dt, a.count)
        self.needed_vtypes.add((dt, a.count))
        fn = self.proto("totensor", "int", [vt, "tlxd_i%d" % a.rank,
                                           "tlxd_i%d" % a.rank,
                                           "tlxd_i%d" % a.rank])
        self.tlx.append("%s v; memcpy(&v, in0, %d);" %
                        (vt, a.count * DTYPES[dt][2]))
        self.tlx.append("int tok = %s(v, %s, %s, %s);" %
                        (fn, ivec(o.shape), ivec(o.layout), ivec(o.padding)))
        self.store("tok")
        self.oracle.append("TLXD_REF(tlx_ref_copy(%s, %s));" %
                           (self.desc_init(a), self.oracle_out()))
        self.desc = "totensor %s %s layout %s" % (dt, a.logical, o.layout)

    def __getattr__(self, name):
        if name.startswith("gen_") and name[4:] in UNARY:
            return lambda: self.unary(name[4:])
        if name.startswith("gen_reduce_"):
            return lambda: self.reduce("reduce." + name[len("gen_reduce_"):])
        raise AttributeError(name)

    # -- emission -----------------------------------------------------------
    def emit(self):
        o = self.out
        lines = []
        lines.append("/* case %d (seed %d): %s */" % (self.index, self.seed,
                                                      self.desc))
        lines.extend(self.protos)
        lines.append("static TLXD_NOINLINE int %s(void) {" % self.fn)
        for t in self.inputs:
            lines.append("  static %s %s[%d];" % (DTYPES[t.dt][0], t.name,
                                                  t.bufsize()))
        n = o.bufsize()
        lines.append("  static %s out_t[%d], out_r[%d];" %
                     (DTYPES[o.dt][0], n, n))
        fill_seed = self.rng.getrandbits(32)
        for i, t in enumerate(self.inputs):
            lines.append("  tlxd_fill(%s, TLXD_%s, %d, %du, %d);" %
                         (t.name, t.dt.upper(), t.bufsize(),
                          (fill_seed + 7919 * i) & 0xffffffff, t.fill))
        lines.append("  memset(out_t, 0x5a, sizeof out_t);")
        lines.append("  memset(out_r, 0x5a, sizeof out_r);")
        lines.append("#ifndef TLXD_ORACLE_ONLY")
        lines.append("  {")
        lines.extend("    " + s for s in self.tlx)
        lines.append("  }")
        lines.append("#endif")
        lines.append("  {")
        lines.extend("    " + s for s in self.oracle)
        lines.append("  }")
        lines.append("#ifdef TLXD_ORACLE_ONLY")
        lines.append("  memcpy(out_t, out_r, sizeof out_t);")
        lines.append("#endif")
        lines.append('  return tlxd_compare(%d, "%s", out_t, out_r, '
                     'TLXD_%s, %d, %r, %r);' %
                     (self.index, self.op, o.dt.upper(), n, self.rtol,
                      self.atol))
        lines.append("}")
        return "\n".join(lines)


PRELUDE = r"""
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef TLXD_ORACLE_ONLY
#include <tlx.h>
#endif
#include <tlxrt.h>

#define TLXD_NOINLINE __attribute__((noinline))
enum { TLXD_I8, TLXD_U8, TLXD_I16, TLXD_U16, TLXD_I32, TLXD_U32, TLXD_I64,
       TLXD_F16, TLXD_BF16, TLXD_F32, TLXD_F64 };

typedef int tlxd_i1 __attribute__((ext_vector_type(1)));
typedef int tlxd_i2 __attribute__((ext_vector_type(2)));
typedef int tlxd_i3 __attribute__((ext_vector_type(3)));
typedef int tlxd_i4 __attribute__((ext_vector_type(4)));
typedef int tlxd_i5 __attribute__((ext_vector_type(5)));
typedef int tlxd_i6 __attribute__((ext_vector_type(6)));
typedef int tlxd_i7 __attribute__((ext_vector_type(7)));
typedef int tlxd_i8 __attribute__((ext_vector_type(8)));

static int tlxd_oracle_errors;
#define TLXD_CHECK(x)                                                        \
  do {                                                                       \
    if ((x) != 0) {                                                          \
      printf("ORACLE-ERROR %s:%d: %s\n", __func__, __LINE__,                 \
             tlxrt_last_error());                                            \
      tlxd_oracle_errors++;                                                  \
      return 1;                                                              \
    }                                                                        \
  } while (0)
#define TLXD_REF(x) TLXD_CHECK(x)

/* SplitMix64: the data of a case depends only on its seed. */
static uint64_t tlxd_next(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static int tlxd_is_float(int k) { return k >= TLXD_F16; }
static size_t tlxd_size(int k) {
  static const size_t sz[] = {1, 1, 2, 2, 4, 4, 8, 2, 2, 4, 8};
  return sz[k];
}

static void tlxd_put_f(void *p, int k, size_t i, double v) {
  switch (k) {
  case TLXD_F16: ((uint16_t *)p)[i] = tlx_f32_to_f16((float)v); break;
  case TLXD_BF16: ((uint16_t *)p)[i] = tlx_f32_to_bf16((float)v); break;
  case TLXD_F32: ((float *)p)[i] = (float)v; break;
  default: ((double *)p)[i] = v; break;
  }
}

static double tlxd_get_f(const void *p, int k, size_t i) {
  switch (k) {
  case TLXD_F16: return tlx_f16_to_f32(((const uint16_t *)p)[i]);
  case TLXD_BF16: return tlx_bf16_to_f32(((const uint16_t *)p)[i]);
  case TLXD_F32: return ((const float *)p)[i];
  default: return ((const double *)p)[i];
  }
}

static void tlxd_fill(void *p, int k, size_t n, uint64_t seed, int mode) {
  uint64_t s = seed * 0x100000001b3ull + 12345;
  for (size_t i = 0; i < n; i++) {
    uint64_t r = tlxd_next(&s);
    if (!tlxd_is_float(k)) {
      uint64_t v = r;
      if (mode == 5) {
        v = (uint64_t)((int64_t)(r % 17) - 8);
      } else if ((r & 7) == 0) {
        /* extremes: min, max, -1, 0, 1 of the element type */
        static const int64_t pick[] = {0, 1, -1, 2};
        int w = (int)tlxd_size(k) * 8;
        uint64_t sel = (r >> 3) % 6;
        if (sel < 4)
          v = (uint64_t)pick[sel];
        else if (sel == 4)
          v = (uint64_t)1 << (w - 1); /* signed min */
        else
          v = ((uint64_t)1 << (w - 1)) - 1; /* signed max */
      } else if ((r & 7) <= 3) {
        v = (uint64_t)((int64_t)((r >> 8) % 33) - 16); /* small */
      } else {
        v = r >> 3;
      }
      memcpy((char *)p + i * tlxd_size(k), &v, tlxd_size(k)); /* LE */
      continue;
    }
    double v;
    switch (mode) {
    case 2: v = (double)((r >> 11) % 505 + 8) / 64.0; break; /* [1/8,8] */
    case 3: v = ((double)(r >> 11) / 9007199254740992.0) * 8.0 - 4.0; break;
    case 4: {
      int m = (int)((r >> 11) % 5) + 2;
      v = ((r >> 40) & 1) ? -m / 4.0 : m / 4.0;
      break;
    }
    default: v = (double)((int)((r >> 11) % 33) - 16) / 8.0; break;
    }
    tlxd_put_f(p, k, i, v);
  }
}

static int tlxd_failures;
static int tlxd_compare(int index, const char *op, const void *got,
                        const void *exp, int k, size_t n, double rtol,
                        double atol) {
  size_t bad = 0, first = (size_t)-1;
  double g0 = 0, e0 = 0;
  for (size_t i = 0; i < n; i++) {
    if (tlxd_is_float(k)) {
      double g = tlxd_get_f(got, k, i), e = tlxd_get_f(exp, k, i);
      if (isnan(g) && isnan(e))
        continue;
      if (g == e || fabs(g - e) <= atol + rtol * fabs(e))
        continue;
      if (first == (size_t)-1) { first = i; g0 = g; e0 = e; }
      bad++;
    } else if (memcmp((const char *)got + i * tlxd_size(k),
                      (const char *)exp + i * tlxd_size(k),
                      tlxd_size(k)) != 0) {
      if (first == (size_t)-1) {
        int64_t g = 0, e = 0;
        memcpy(&g, (const char *)got + i * tlxd_size(k), tlxd_size(k));
        memcpy(&e, (const char *)exp + i * tlxd_size(k), tlxd_size(k));
        first = i; g0 = (double)g; e0 = (double)e;
      }
      bad++;
    }
  }
  if (!bad)
    return 0;
  printf("FAIL case %d (%s): %zu of %zu elements differ; first at buffer "
         "element %zu: got %.17g expected %.17g (rtol %g atol %g)\n",
         index, op, bad, n, first, g0, e0, rtol, atol);
  tlxd_failures++;
  return 1;
}
"""


def gen_vtypes(vtypes):
    out = []
    for dt, n in sorted(vtypes):
        out.append("typedef %s tlxd_%s_%d __attribute__((ext_vector_type(%d)));"
                   % (DTYPES[dt][0], dt, n, n))
    return out


def generate(seed, indices, ops, no_small_vectors=None, amx_shapes=None,
             amx_max_n=None):
    global NO_SMALL_VECTORS, AMX_SHAPES, AMX_MAX_N
    if amx_max_n is not None:
        AMX_MAX_N = amx_max_n
    if no_small_vectors is not None:
        NO_SMALL_VECTORS = no_small_vectors
    if amx_shapes is not None:
        AMX_SHAPES = amx_shapes
    cases = []
    vtypes = set()
    for i in indices:
        c = Case.__new__(Case)
        c.needed_vtypes = vtypes
        Case.__init__(c, seed, i, ops)
        cases.append(c)
    parts = ["/* Generated by test/Differential/gen.py --seed %d, cases %s,"
             " ops %s%s. Do not edit. */" %
             (seed, ",".join(str(i) for i in indices) if len(indices) < 4
              else "%d..%d" % (indices[0], indices[-1]), ",".join(ops),
              (", --no-small-vectors" if NO_SMALL_VECTORS else "") +
              (", --amx-shapes --amx-max-n %d" % AMX_MAX_N
               if AMX_SHAPES else "")),
             PRELUDE]
    parts.extend(gen_vtypes(vtypes))
    parts.append("")
    for c in cases:
        body = c.emit()
        parts.append(body)
        parts.append("")
    parts.append("int main(void) {")
    parts.append("  int failed = 0;")
    for c in cases:
        parts.append("  failed += %s();" % c.fn)
    parts.append('  printf("%%d cases, %%d failed, %%d oracle errors\\n", '
                 '%d, failed, tlxd_oracle_errors);' % len(cases))
    parts.append("  return failed != 0;")
    parts.append("}")
    return "\n".join(parts) + "\n"


def parse_ops(s):
    if s in (None, "", "all"):
        return list(ALL_OPS)
    ops = [o.strip() for o in s.split(",") if o.strip()]
    for o in ops:
        parts = o.split("!")
        if parts[0] not in ALL_OPS:
            sys.exit("gen.py: unknown op '%s' (see --list-ops)" % parts[0])
        for t in parts[1:]:
            if t not in DTYPES:
                sys.exit("gen.py: unknown element type '%s' in '%s'" % (t, o))
    return ops


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--case", type=int, help="generate this case alone")
    ap.add_argument("--ops", default="all",
                    help="comma-separated op vocabulary (default all); "
                    "op!type!type excludes element types for that op")
    ap.add_argument("--list-ops", action="store_true")
    ap.add_argument("--no-small-vectors", action="store_true",
                    help="avoid vector values of 8 bytes or less and of 3 "
                    "elements (known front-end bugs)")
    ap.add_argument("--amx-shapes", action="store_true",
                    help="matmul/mma: AMX element types, larger sizes")
    ap.add_argument("--amx-max-n", type=int, default=100,
                    help="largest N with --amx-shapes")
    ap.add_argument("-o", "--output", default="-")
    args = ap.parse_args(argv)
    if args.list_ops:
        print("\n".join(ALL_OPS))
        return 0
    ops = parse_ops(args.ops)
    if args.case is not None:
        indices = [args.case]
    else:
        indices = list(range(args.first, args.first + args.count))
    text = generate(args.seed, indices, ops, args.no_small_vectors,
                    args.amx_shapes, args.amx_max_n)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

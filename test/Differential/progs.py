#!/usr/bin/env python3
"""Program-level differential generator for TLX.

gen.py checks one op per program against libtlxrt. This generator writes
random multi-op C11 programs - DAGs of 2-8 TLX ops over the whole
vocabulary with element types f32, bf16, i32 and i8 - and computes every
expected value with plain C loops it writes itself (no libtlxrt, no TLX):
each op of the program has a reference loop nest in the same file. The
programs exercise what single-op tests cannot:

  - fan-out: a value read by 2-3 ops, and again after a later op;
  - escapes to non-TLX code: noinline functions taking the result vector
    by value, noinline functions computing an op on a by-value vector
    parameter and returning the result by value, stores of the vector to
    globals, element reads v[i] - early or after later ops;
  - merges of tokens through if/else, ?: and loops (trip count and flags
    from volatiles or argc, so nothing folds), of tokens and of data;
  - in-place updates: mma accumulating into the array it loaded (C = C +
    A x B), results stored over an input that is read again later, and
    overlapping (memmove-like) load/store of one array;
  - sub-blocks with leading dimensions and offsets, column-major and
    permuted layouts, padding;
  - sizes straddling TLX's 4 KiB stack/heap buffer threshold;
  - C's own forms of tensor values: vector variables initialized in C
    ({0}, {}, partial) and written element by element, as inputs and as
    mma accumulators; C operator results read before a typeinfo names
    them; merged vectors only C reads.

Every stored array (whole buffer, untouched elements included) and every
escaped value is compared with the reference: integers exactly, floats
exactly where the generator can prove the result is exact (dyadic data,
sums that fit the mantissa, data movement), otherwise within an error
bound the generator propagates through the DAG.

(seed, case index, feature set, op list) -> program is a pure function:
case i draws from random.Random("progs:<seed>:<i>"), so a case can be
regenerated alone (--case) as a standalone reproducer.

  progs.py --seed S --first F --count N [--no-merges ...] -o batch.c
  progs.py --seed S --case I [same flags] -o repro.c
  progs.py --list-features

Only the Python 3 standard library is used. docs/testing.md describes it.
"""

import argparse
import math
import os
import random
import sys

# --------------------------------------------------------------------------
# Element types: C type in TLX code, reference type, storage type of the
# shadow/capture arrays, bytes, float?, tlxp_check code.
DT = {
    "f32": ("float", "float", "float", 4, True, "TLXP_F32"),
    "bf16": ("__bf16", "float", "uint16_t", 2, True, "TLXP_BF16"),
    "i32": ("int32_t", "int32_t", "int32_t", 4, False, "TLXP_I32"),
    "i8": ("int8_t", "int8_t", "int8_t", 1, False, "TLXP_I8"),
}
TYPES = list(DT)
FLOATS = ["f32", "bf16"]
INTS = ["i32", "i8"]


def is_float(dt):
    return DT[dt][4]


# Relative size of one unit in the last place of a result type.
ULP = {"f32": 2.0 ** -23, "bf16": 2.0 ** -7}
EPS_ACC = 2.0 ** -23   # float accumulation (f32 and bf16 results)
MANT_BITS = 24         # exact float sums stay below 2^24 * 2^-q

STACK_LIMIT = 4096     # bytes: TLX's MaxStackBufferBytes

# Features, each on by default except "nan"; --no-<feature> turns one off,
# the group flags several. docs/testing.md lists the known-broken ones.
FEATURES = {
    "fanout": "values read by several ops, and again after a later op",
    "layouts": "non-identity layouts (column-major, permuted) and padding",
    "strides": "loads/stores of sub-blocks: leading dimensions, offsets",
    "vectors": "tensors entering TLX as C vectors (typeinfo/totensor)",
    "big": "programs whose tensors straddle the 4 KiB stack/heap threshold",
    "merge-if": "if/else merges of tokens (and of op results in branches)",
    "merge-select": "t = flag ? tx : ty",
    "merge-loop": "loop-carried tokens (t = typeinfo(op(t)), mma accumulate)",
    "merge-data": "if/else and ?: merges of result vectors, then typeinfo",
    "merge-layout": "merged tokens with non-identity layouts",
    "merge-big": "merged tensors larger than 4 KiB",
    "merge-escaped": "a token whose vector escapes flows into a merge",
    "merge-wide-bf16": "merged bf16 tensors of more than 256 elements",
    "merge-load": "merges of loads whose arrays were written after the load",
    "escape-arg": "noinline functions taking the result vector by value",
    "escape-ret": "noinline functions computing an op on by-value vector "
                  "parameters and returning the result by value",
    "escape-global": "result vectors stored to globals",
    "escape-elem": "element reads v[i] of result vectors",
    "escape-late": "escapes placed after later TLX ops",
    "escape-big": "escaping vectors larger than 4 KiB",
    "big-byvalue": "a 4-16 MiB tensor passed by value to and returned "
                   "from a noinline function (tlx-heap-values: never on "
                   "the stack)",
    "inplace-mma": "C = C + A x B: mma loads and stores the same array",
    "store-over-input": "results stored over an input array that is read "
                        "again (old token, and reloads)",
    "overlap": "a load and a store of one array whose regions overlap",
    "reload": "loads of arrays the program stored to",
    "tovector-reuse": "tovector results made tensors again (vector_totensor, "
                      "or a 1-D typeinfo)",
    "c-operators": "C vector operators (+ - * & | ^, splats, negation) on "
                   "tensor values (op 'cop'), their results read by C "
                   "before any typeinfo names them",
    "init-vectors": "inputs and mma accumulators that are C vector "
                    "variables initialized in C ({0}, {}, a partial "
                    "initializer) and written element by element",
    "const-acc": "mma accumulators broadcast from a `static const` "
                 "one-element global (the u8s8s32 idiom of "
                 "bench/tlx_matmul.c): zero, which the GEMM does not read, "
                 "or another constant, which it must",
    "merge-read": "vectors merged across if/else that only C reads (no "
                  "typeinfo names the merge)",
    "axis-reductions": "reduce windows covering whole axes: per-row, "
                       "per-column and full reductions (tlx-legalize's "
                       "along-the-window and by-window-rows loops)",
    "runtime-sizes": "matmul and the mma family whose sizes and leading "
                     "dimensions are C variables (read from volatiles), "
                     "column-major op1, accumulating from another array or "
                     "in place, zero extents, relu fused after them; copies "
                     "and relu/fabs/floor chains on 1-3-D memory with "
                     "run-time extents, layouts and leading dimensions; "
                     "trees of transpose, pad, concat, broadcast (fill), "
                     "reshape.block and reduce.* with run-time extents, "
                     "amounts, "
                     "windows and strides, results read twice, by a "
                     "GEMM or in another block (run-time buffers)",
    "conv-epilogue": "a convolution's result plus a per-channel bias (a "
                     "broadcast of [O, 1..]) through relu into one store "
                     "(tlx-nd-to-2d fuses the chain into the convolution's "
                     "rows), its pieces sometimes escaping or read again",
    "nan": "NaN and -0.0 in float inputs (off by default)",
    "bf16": "__bf16 tensors (off for targets whose C has no __bf16: "
            "powerpc64le)",
}
GROUPS = {
    "merges": ["merge-if", "merge-select", "merge-loop", "merge-data"],
    "escapes": ["escape-arg", "escape-ret", "escape-global", "escape-elem"],
    "inplace": ["inplace-mma", "store-over-input", "overlap"],
}
DEFAULT_OFF = {"nan"}
# Features that say which element types exist rather than which constructs
# to draw: --only keeps them; --no-bf16 turns bf16 off.
TYPE_FEATURES = {"bf16"}

OPS = ["matmul", "umma", "smma", "usmma", "summa", "contract", "convolution",
       "relu", "tanh", "sigmoid", "sin", "cos", "exp", "exp2", "log", "log2",
       "log10", "sqrt", "fabs", "floor", "ceil", "broadcast", "reduce.max",
       "reduce.min", "reduce.add", "reduce.mul", "reduce.and", "reduce.or",
       "reduce.xor", "reshape.block", "reshape.permute", "transpose", "pad",
       "concat", "tovector", "cop"]
UNARY = ["relu", "tanh", "sigmoid", "sin", "cos", "exp", "exp2", "log",
         "log2", "log10", "sqrt", "fabs", "floor", "ceil"]
MMA = {"umma": (True, True), "smma": (False, False), "usmma": (True, False),
       "summa": (False, True)}
# op -> relative weight in the random choice
WEIGHTS = {"matmul": 6, "umma": 1.5, "smma": 1.5, "usmma": 1.5, "summa": 1.5,
           "contract": 3, "convolution": 3, "broadcast": 3, "transpose": 4,
           "reshape.block": 2, "reshape.permute": 2, "pad": 3, "concat": 3,
           "tovector": 2, "cop": 4}
for _u in UNARY:
    WEIGHTS[_u] = 0.8
WEIGHTS["relu"] = 3
WEIGHTS["fabs"] = 1.5
for _r in ["reduce.max", "reduce.min", "reduce.add", "reduce.mul",
           "reduce.and", "reduce.or", "reduce.xor"]:
    WEIGHTS[_r] = 0.9
# Program-level constructs, drawn like ops.
CONSTRUCTS = {"merge": 14, "inplace": 4, "overlap": 2, "reload": 2}

SMALL_DIMS = [1, 2, 3, 4, 5, 6, 7, 8]
BIG_DIMS = [31, 32, 33, 40, 46, 64]


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def ivec(xs):
    return "((tlxp_i%d){%s})" % (len(xs), ", ".join(str(int(x)) for x in xs))


def rm_strides(ext):
    st = [1] * len(ext)
    for i in range(len(ext) - 2, -1, -1):
        st[i] = st[i + 1] * ext[i + 1]
    return st


def lin(idx, strides, off=0):
    terms = []
    for i, s in zip(idx, strides):
        if s == 0:
            continue
        if s != 1 and not i.isidentifier() and not i.isdigit():
            i = "(%s)" % i
        terms.append("%s*%d" % (i, s) if s != 1 else i)
    if off:
        terms.append(str(off))
    return " + ".join(terms) if terms else "0"


def cfloat(x):
    s = repr(float(x))
    return s + "f" if ("." in s or "e" in s) else s + ".0f"


def scalar_c(dt, v):
    if is_float(dt):
        return "(%s)%s" % (DT[dt][0], cfloat(v))
    return "(%s)%d" % (DT[dt][0], v)


# --------------------------------------------------------------------------
class Arr:
    """A C array: TLX copy `name`, reference shadow `name_r`."""

    def __init__(self, p, dt, n, kind):
        self.name = "A%d" % len(p.arrs)
        self.dt = dt
        self.n = n
        self.kind = kind          # "in" (random data) or "out" (pattern)
        self.atol = 0.0
        self.rtol = 0.0
        self.frozen = False       # must not be written (merge-load off)
        self.regions = []         # stored regions: (off, blas, shape)
        self.written = False
        self.nwrites = 0          # stores into the array so far
        self.fill_mode = 0
        p.arrs.append(self)


class Val:
    """A tensor value of the program: its token, data and reference."""

    def __init__(self, p, dt, logical):
        self.id = p.nv
        p.nv += 1
        self.name = "v%d" % self.id
        self.dt = dt
        self.logical = list(logical)
        self.layout = list(range(len(logical)))
        self.padding = [0] * len(logical)
        self.tok = None      # C token variable
        self.data = None     # C vector variable, storage order
        self.ref = "v%d_r" % self.id
        self.uses = 0
        self.load = None     # (arr, off, blas) when defined by a load
        self.load_w = 0      # the array's nwrites when it was loaded
        self.merged = False
        self.escaped = False
        self.observed = False
        self.will_escape = False
        # float error model: |x| <= mag; values multiples of 2^-q (q not
        # None); compare |got - exp| <= err + rel * |exp|; pos: all >= 1/64
        self.mag = 0.0
        self.q = None
        self.err = 0.0
        self.rel = 0.0
        self.pos = False
        self.nan = False
        self.what = ""

    @property
    def rank(self):
        return len(self.logical)

    @property
    def shape(self):
        return [self.logical[l] for l in self.layout]

    @property
    def count(self):
        return prod(self.logical)

    @property
    def nbytes(self):
        return self.count * DT[self.dt][3]

    @property
    def exact(self):
        return self.err == 0 and self.rel == 0

    def dev(self):
        """Absolute deviation bound of an element."""
        return self.err + self.rel * self.mag

    def copy_model(self, o):
        self.mag, self.q, self.err, self.rel, self.pos, self.nan = \
            o.mag, o.q, o.err, o.rel, o.pos, o.nan


def elem_strides(shape, blas):
    r = len(shape)
    st = [0] * r
    st[r - 1] = 1
    for i in range(r - 1, 0, -1):
        st[i - 1] = blas[i] if blas[i] else shape[i] * st[i]
    return st


def span(shape, blas):
    st = elem_strides(shape, blas)
    return sum((e - 1) * s for e, s in zip(shape, st)) + 1


class Prog:
    def __init__(self, seed, index, feats, ops, vtypes, max_ops=8):
        self.seed = seed
        self.index = index
        self.feats = feats
        self.ops = ops
        self.vtypes = vtypes        # shared over a batch: (dt, n)
        self.rng = random.Random("progs:%d:%d" % (seed, index))
        self.nv = 0
        self.arrs = []
        self.vals = []
        self.protos = []
        self.globs = []
        self.fns = []
        self.decls = []
        self.inits = []
        self.tlx = []
        self.ref = []
        self.checks = []
        self.pending = []          # late escapes: [ops left, callable]
        self.tags = set()
        self.opnames = []
        self.nproto = 0
        self.ncap = 0
        self.nflag = 0
        self.nfn = 0
        self.ind = 0               # indentation level of self.tlx/self.ref
        self.no_helper = False     # no escape-ret helpers (merge operands)
        self.max_ops = max_ops
        self.build()

    # -- small helpers ----------------------------------------------------
    def on(self, f):
        return f in self.feats

    def chance(self, p):
        return self.rng.random() < p

    def vt(self, dt, n):
        self.vtypes.add((dt, n))
        return "tlxp_%s_%d" % (dt, n)

    def T(self, s):
        self.tlx.append("  " * self.ind + s)

    def R(self, s):
        self.ref.append("  " * self.ind + s)

    def proto(self, op, ret, params):
        name = "%s_p%d_%d" % ("vector_totensor" if op == "totensor" else
                              "tensor_" + op.replace(".", "_"),
                              self.index, self.nproto)
        self.nproto += 1
        self.protos.append("%s %s(%s);" % (ret, name, ", ".join(params)))
        return name

    def dim(self):
        return self.rng.choice(self.pal)

    def rshape(self, rank, cap=None):
        cap = cap or self.max_elems
        for _ in range(50):
            s = [self.dim() for _ in range(rank)]
            if prod(s) <= cap:
                return s
        # too big for the palette: leading dims of 1 or 2
        for _ in range(50):
            s = [self.dim()] + [self.rng.choice([1, 2]) for _ in
                                range(rank - 1)]
            self.rng.shuffle(s)
            if prod(s) <= cap:
                return s
        return [1] * rank

    def rand_layout(self, r):
        p = list(range(r))
        if self.on("layouts") and r > 1 and self.chance(0.5):
            self.rng.shuffle(p)
            if p != list(range(r)):
                self.tags.add("layout")
        return p

    def rand_padding(self, r):
        if self.on("layouts") and self.chance(0.3):
            return [self.rng.choice([0, 0, 1, 3]) for _ in range(r)]
        return [0] * r

    def rand_blas(self, shape):
        r = len(shape)
        blas = [0] * r
        if not self.on("strides") or r == 1 or self.chance(0.45):
            return blas
        inner = 1
        for i in range(r - 1, 0, -1):
            packed = shape[i] * inner
            c = self.rng.random()
            if c < 0.35:
                inner = packed
            elif c < 0.5:
                blas[i] = packed
                inner = packed
            else:
                blas[i] = packed + self.rng.randint(1, 5)
                inner = blas[i]
                self.tags.add("strides")
        return blas

    def rand_off(self):
        if self.on("strides") and self.chance(0.4):
            return self.rng.choice([1, 2, 3, 5])
        return 0

    def flag(self):
        """A runtime condition the optimizer cannot fold; value known."""
        k = self.nflag
        self.nflag += 1
        if self.chance(0.3):
            # main passes argc (1 when run without arguments).
            return self.rng.choice(["argc > 1", "argc == 1", "argc < 2",
                                    "argc >= 3"])
        name = "tlxp_flag%d_%d" % (self.index, k)
        self.globs.append("static volatile int %s = %d;" %
                          (name, self.rng.randint(0, 1)))
        return name

    def trip(self):
        k = self.nflag
        self.nflag += 1
        if self.chance(0.25):
            return self.rng.choice(["argc", "argc + 1", "argc - 1"])
        name = "tlxp_trip%d_%d" % (self.index, k)
        self.globs.append("static volatile int %s = %d;" %
                          (name, self.rng.choice([0, 1, 2, 2, 3])))
        return name

    # -- reference emission -----------------------------------------------
    def rdecl(self, v):
        self.decls.append("static %s %s[%d];" % (DT[v.dt][1], v.ref,
                                                  v.count))

    def loop_open(self, ext, names):
        for n, e in zip(names, ext):
            self.R("for (int %s = 0; %s < %d; %s++) {" % (n, n, e, n))
            self.ind += 1

    def loop_close(self, k):
        for _ in range(k):
            self.ind -= 1
            self.R("}")

    def at(self, v, idx):
        """Reference element of v at logical index expressions idx."""
        return "%s[%s]" % (v.ref, lin(idx, rm_strides(v.logical)))

    def rnd(self, dt, e):
        """Rounds a float expression to dt (reference)."""
        return "tlxp_bf16r(%s)" % e if dt == "bf16" else e

    def shadow_rd(self, arr, addr):
        if arr.dt == "bf16":
            return "tlxp_bf2f(%s_r[%s])" % (arr.name, addr)
        return "%s_r[%s]" % (arr.name, addr)

    def shadow_wr(self, arr, addr, e):
        if arr.dt == "bf16":
            return "%s_r[%s] = tlxp_f2bf(%s);" % (arr.name, addr, e)
        return "%s_r[%s] = %s;" % (arr.name, addr, e)

    def ref_mem(self, v, arr, off, blas, load):
        """Reference load (shadow -> v_r) or store (v_r -> shadow)."""
        idx = ["i%d" % d for d in range(v.rank)]
        st = elem_strides(v.shape, blas)
        addr = lin([idx[v.layout[k]] for k in range(v.rank)], st, off)
        self.R("{")
        self.ind += 1
        self.loop_open(v.logical, idx)
        if load:
            self.R("%s = %s;" % (self.at(v, idx), self.shadow_rd(arr, addr)))
        else:
            self.R(self.shadow_wr(arr, addr, self.at(v, idx)))
        self.loop_close(v.rank)
        self.ind -= 1
        self.R("}")

    def ref_copy(self, dst, src):
        self.R("memcpy(%s, %s, sizeof %s);" % (dst.ref, src.ref, dst.ref))

    # -- arrays and inputs ------------------------------------------------
    def new_arr(self, dt, n, kind, fill=0):
        a = Arr(self, dt, n, kind)
        a.fill_mode = fill
        return a

    def fill_mode(self, dt, pos=False):
        if not is_float(dt):
            return 0
        if pos:
            return 2
        return 3 if self.on("nan") else 1

    def input_model(self, v, pos=False):
        if is_float(v.dt):
            v.mag, v.q, v.err, v.rel = 2.0, 3, 0.0, 0.0
            v.pos = pos
            v.nan = self.on("nan") and not pos

    def new_input(self, dt, logical, pos=False, form=None, victim=False,
                  layout=None, padding=None, blas=None, off=None):
        """A fresh input tensor: a strided load, or a C vector."""
        v = Val(self, dt, logical)
        v.layout = layout if layout is not None else \
            self.rand_layout(len(logical))
        v.padding = padding if padding is not None else \
            self.rand_padding(len(logical))
        self.input_model(v, pos)
        if form is None:
            form = "load"
            if self.on("vectors") and not victim and self.chance(0.25):
                form = self.rng.choice(["typeinfo", "typeinfo", "totensor"])
            if self.on("init-vectors") and not victim and dt != "bf16" and \
                    self.chance(0.12):
                form = self.rng.choice(["init-typeinfo", "init-totensor"])
        v.tok = "t%d" % v.id
        self.rdecl(v)
        if form.startswith("init-"):
            return self.init_input(v, form[5:])
        fm = self.fill_mode(dt, pos)
        if form == "load":
            blas = self.rand_blas(v.shape) if blas is None else blas
            off = self.rand_off() if off is None else off
            a = self.new_arr(dt, off + span(v.shape, blas) + 3, "in", fm)
            self.T("int %s = tensor_load(%s + %d, %s, %s, %s, %s);" %
                   (v.tok, a.name, off, ivec(v.shape), ivec(v.layout),
                    ivec(v.padding), ivec(blas)))
            self.ref_mem(v, a, off, blas, True)
            v.load = (a, off, blas)
            v.load_w = a.nwrites
            v.what = "load %s %s layout %s" % (dt, v.logical, v.layout)
        else:
            a = self.new_arr(dt, v.count, "in", fm)
            vt = self.vt(dt, v.count)
            d = "d%d" % v.id
            # (sizeof a vector is rounded up to a power of 2: copy bytes)
            self.T("%s %s; memcpy(&%s, %s, %d);" % (vt, d, d, a.name,
                                                    v.nbytes))
            self.tags.add("vector-input")
            if form == "typeinfo":
                # vector in storage order
                self.T("int %s = tensor_typeinfo(%s, %s, %s, %s);" %
                       (v.tok, d, ivec(v.shape), ivec(v.layout),
                        ivec(v.padding)))
                self.ref_mem(v, a, 0, [0] * v.rank, True)
                v.data = d
            else:
                # vector in logical order
                self.T("int %s = vector_totensor(%s, %s, %s, %s);" %
                       (v.tok, d, ivec(v.shape), ivec(v.layout),
                        ivec(v.padding)))
                tmp = Val(self, dt, logical)
                tmp.ref = v.ref
                self.ref_mem(tmp, a, 0, [0] * v.rank, True)
                if v.layout == list(range(v.rank)):
                    v.data = d
            v.what = "%s %s %s layout %s" % (form, dt, v.logical, v.layout)
        self.vals.append(v)
        return v

    def const_broadcast(self, dt, logical):
        """A `static const` one-element global - 0, or another constant -
        loaded as a tensor of ones and broadcast to `logical`."""
        val = 0 if self.chance(0.7) else self.rng.randint(-5, 5)
        one = [1] * len(logical)
        v = Val(self, dt, one)
        v.layout, v.padding = list(range(len(one))), [0] * len(one)
        self.input_model(v)
        v.tok = "t%d" % v.id
        self.rdecl(v)
        self.T("static const %s k%d[1] = {%d};" % (DT[dt][1], v.id, val))
        self.T("int %s = tensor_load(k%d, %s, %s, %s, %s);" %
               (v.tok, v.id, ivec(one), ivec(v.layout), ivec(v.padding),
                ivec([0] * len(one))))
        self.R("%s[0] = %d;" % (v.ref, val))
        v.what = "const %s %d" % (dt, val)
        self.vals.append(v)
        out = Val(self, dt, logical)
        out.copy_model(v)
        out.what = "broadcast const %s %d -> %s" % (dt, val, logical)
        self.tags.add("const-acc")

        def ref():
            idx = ["i%d" % i for i in range(len(logical))]
            self.loop_open(logical, idx)
            self.R("%s = %s[0];" % (self.at(out, idx), v.ref))
            self.loop_close(len(logical))
        return self.compute("broadcast", out, [v], [], ref)

    def init_input(self, v, form):
        """A C vector variable initialized in C - `= {0}`, `= {}` or a
        partial initializer - then written element by element (constant
        and run-time positions), named by typeinfo (storage order) or
        vector_totensor (logical order). The reference sets the same
        elements of a zeroed array."""
        dt = v.dt
        vals = {}
        pick_val = (lambda: self.rng.randint(-16, 16) / 8.0) \
            if is_float(dt) else (lambda: self.rng.randint(-5, 5))
        lit = (lambda x: cfloat(x)) if is_float(dt) else str
        style = self.rng.choice(["{0}", "{}", "partial"])
        init = style
        if style == "partial":
            n = self.rng.randint(1, min(4, v.count))
            for j in range(n):
                vals[j] = pick_val()
            init = "{%s}" % ", ".join(lit(vals[j]) for j in range(n))
        writes = []
        for _ in range(self.rng.randint(1, 4)):
            j = self.rng.randrange(v.count)
            vals[j] = pick_val()
            writes.append(j)
        d = "d%d" % v.id
        self.T("%s %s = %s;" % (self.vt(dt, v.count), d, init))
        for j in writes:
            pos = str(j) if self.chance(0.5) else \
                "%d + (argc - argc)" % j
            self.T("%s[%s] = %s;" % (d, pos, lit(vals[j])))
        self.tags.add("init-vectors")
        # Position j of the vector is element j of the storage order
        # (typeinfo) or of the logical row-major order (totensor).
        order = v.shape if form == "typeinfo" else v.logical
        self.R("memset(%s, 0, sizeof %s);" % (v.ref, v.ref))
        for j, x in sorted(vals.items()):
            idx, rest = [], j
            for e in reversed(order):
                idx.append(rest % e)
                rest //= e
            idx.reverse()
            if form == "typeinfo":
                logical = [0] * v.rank
                for k in range(v.rank):
                    logical[v.layout[k]] = idx[k]
                idx = logical
            self.R("%s = %s;" % (self.at(v, [str(i) for i in idx]), lit(x)))
        op = "tensor_typeinfo" if form == "typeinfo" else "vector_totensor"
        self.T("int %s = %s(%s, %s, %s, %s);" %
               (v.tok, op, d, ivec(v.shape), ivec(v.layout),
                ivec(v.padding)))
        if form == "typeinfo" or v.layout == list(range(v.rank)):
            v.data = d
        v.what = "init-%s %s %s %s layout %s" % (form, style, dt, v.logical,
                                               v.layout)
        self.vals.append(v)
        return v

    # -- operand choice (fan-out) ----------------------------------------
    def pick(self, pred, new=None, reuse=0.7):
        cands = [v for v in self.vals if pred(v)]
        if not self.on("fanout"):
            cands = [v for v in cands if v.uses == 0]
        if cands and (new is None or self.chance(reuse)):
            w = []
            last = self.vals[-3:]
            for v in cands:
                x = 1.0
                if v.uses:
                    x *= 2.5
                if v in last:
                    x *= 2
                w.append(x)
            v = self.rng.choices(cands, w)[0]
        elif new is not None:
            v = new()
        else:
            return None
        return v

    def use(self, v):
        if v.uses:
            self.tags.add("fanout")
            if v.uses >= 2:
                self.tags.add("fanout3")
        v.uses += 1

    # -- compute: one op call, its result typeinfo, its reference ---------
    def compute(self, op, out, operands, extras, ref_fn, layout=None,
                padding=None, into=None, top=True, allow_helper=True):
        """Emits out = op(operands..., extras...) and its reference.

        extras: (C type, C expression). ref_fn() emits the reference loop
        into out.ref. The result typeinfo gets `layout`/`padding` if given,
        else random ones. into: a merge value whose token variable gets the
        result token (and whose reference array a copy of the result).
        """
        tokvar = into.tok if into is not None else None
        out.layout = layout if layout is not None else \
            self.rand_layout(out.rank)
        out.padding = padding if padding is not None else \
            self.rand_padding(out.rank)
        vt = self.vt(out.dt, out.count)
        # an operand an op read already is read late by a helper call
        read_before = any(v.uses for v in operands)
        for v in operands:
            self.use(v)
        params = ["int"] * len(operands) + [t for t, _ in extras]
        fn = self.proto(op, vt, params)
        d = "d%d" % out.id
        out.tok = tokvar or "t%d" % out.id
        decl = "" if tokvar else "int "
        helper = (allow_helper and top and not self.no_helper and
                  self.on("escape-ret") and
                  all(v.data for v in operands) and self.chance(0.35) and
                  (self.on("merge-escaped") or
                   not any(v.merged for v in operands)) and
                  (self.on("escape-late") or not read_before) and
                  (self.on("escape-big") or
                   all(v.nbytes <= STACK_LIMIT for v in operands + [out])))
        if helper:
            # noinline function: by-value vector parameters, op, result
            # returned by value.
            h = "tlxp_h%d_%d" % (self.index, self.nfn)
            self.nfn += 1
            ps = ["%s p%d" % (self.vt(v.dt, v.count), i)
                  for i, v in enumerate(operands)]
            body = ["static TLXP_NOINLINE %s %s(%s) {" %
                    (vt, h, ", ".join(ps) or "void")]
            for i, v in enumerate(operands):
                body.append("  int q%d = tensor_typeinfo(p%d, %s, %s, %s);" %
                            (i, i, ivec(v.shape), ivec(v.layout),
                             ivec(v.padding)))
            args = ["q%d" % i for i in range(len(operands))]
            body.append("  %s r = %s(%s);" % (vt, fn, ", ".join(
                args + [e for _, e in extras])))
            body.append("  int tr = tensor_typeinfo(r, %s, %s, %s);" %
                        (ivec(out.shape), ivec(out.layout),
                         ivec(out.padding)))
            body.append("  (void)tr;")
            body.append("  return r;")
            body.append("}")
            self.fns.append("\n".join(body))
            self.T("%s %s = %s(%s);" % (vt, d, h, ", ".join(
                v.data for v in operands)))
            for v in operands:
                v.escaped = True
                if v.merged:
                    self.tags.add("merge-escaped")
            self.tags.add("escape-ret")
            if read_before:
                self.tags.add("escape-late")
            if any(v.nbytes > STACK_LIMIT for v in operands + [out]):
                self.tags.add("escape-big")
            out.escaped = True
        else:
            self.T("%s %s = %s(%s);" % (vt, d, fn, ", ".join(
                [v.tok for v in operands] + [e for _, e in extras])))
        self.T("%s%s = tensor_typeinfo(%s, %s, %s, %s);" %
               (decl, out.tok, d, ivec(out.shape), ivec(out.layout),
                ivec(out.padding)))
        out.data = d if top else None
        self.rdecl(out)
        self.R("{ /* %s */" % op)
        self.ind += 1
        ref_fn()
        self.ind -= 1
        self.R("}")
        if into is not None:
            self.ref_copy(into, out)
        if top:
            self.vals.append(out)
            self.opnames.append(op)
            if out.nbytes > STACK_LIMIT or any(
                    v.nbytes > STACK_LIMIT for v in operands):
                self.tags.add("big")
        return out

    # -- float error model ------------------------------------------------
    def linear(self, out, a, b, k, acc=None):
        """out = sum of k products a*b (+ acc)."""
        if not is_float(out.dt):
            return
        out.nan = a.nan or b.nan
        out.pos = a.pos and b.pos
        mag = k * a.mag * b.mag
        q = a.q + b.q if a.q is not None and b.q is not None else None
        if a.exact and b.exact and q is not None and \
                mag * 2.0 ** q < 2.0 ** MANT_BITS:
            out.mag, out.q, out.err, out.rel = mag, q, 0.0, 0.0
            if out.dt == "bf16":
                out.mag = mag * (1 + 2.0 ** -7)
            return
        da, db = a.dev(), b.dev()
        out.mag = k * (a.mag + da) * (b.mag + db)
        out.err = k * (a.mag * db + b.mag * da + da * db) + \
            4 * k * out.mag * EPS_ACC
        out.q = None
        out.rel = ULP["bf16"] if out.dt == "bf16" else 0.0

    def summed(self, out, a, w):
        """reduce.add over windows of w elements."""
        if not is_float(out.dt):
            return
        out.nan, out.pos = a.nan, a.pos
        mag = w * a.mag
        if a.exact and a.q is not None and \
                mag * 2.0 ** a.q < 2.0 ** MANT_BITS:
            out.mag, out.q = mag, a.q
            if out.dt == "bf16":
                out.mag *= 1 + 2.0 ** -7
            return
        out.mag = w * (a.mag + a.dev())
        out.err = w * a.dev() + 4 * w * out.mag * EPS_ACC
        out.q = None
        out.rel = ULP["bf16"] if out.dt == "bf16" else 0.0

    def approx(self, out, mag, err, pos=False):
        """A transcendental result: float error plus bf16 rounding."""
        out.mag = mag
        out.q = None
        out.err = err + 2.0 ** -18 * max(1.0, mag)
        out.rel = ULP["bf16"] if out.dt == "bf16" else 2.0 ** -20
        out.pos = pos

    # -- ops ----------------------------------------------------------------
    def dt_choice(self, allowed):
        allowed = self.drawable(allowed)
        ok = [t for t in allowed if t in self.dts]
        if ok and self.chance(0.8):
            return self.rng.choice(ok)
        return self.rng.choice(allowed)

    def drawable(self, types):
        """The element types of `types` that may be drawn: all but bf16 when
        the bf16 feature is off."""
        return [t for t in types if t != "bf16" or self.on("bf16")]

    def fine(self, v):
        """Float values accurate enough for further arithmetic."""
        return not is_float(v.dt) or v.dev() <= 1e-3 * max(v.mag, 1.0)

    def op_matmul(self, op):
        combos = [("f32", "f32", "f32"), ("f32", "f32", "f32"),
                  ("bf16", "bf16", "f32"), ("bf16", "bf16", "bf16"),
                  ("i32", "i32", "i32"), ("i8", "i8", "i32"),
                  ("i8", "i8", "i8")]
        combos = [c for c in combos if self.drawable(c) == list(c)]
        pref = [c for c in combos if c[0] in self.dts]
        ta, tb, to = self.rng.choice(pref if pref and self.chance(0.8)
                                     else combos)
        a = self.pick(lambda v: v.dt == ta and 2 <= v.rank <= 3 and
                      self.fine(v),
                      lambda: self.new_input(ta, self.rshape(
                          self.rng.choice([2, 2, 2, 3]))))
        batch, m, k = a.logical[:-2], a.logical[-2], a.logical[-1]

        def okb(v):
            return (v.dt == tb and v.rank == a.rank and v.logical[:-2] ==
                    batch and v.logical[-2] == k and self.fine(v) and
                    prod(batch) * m * v.logical[-1] <= self.max_elems)
        b = self.pick(okb, lambda: self.new_input(
            tb, batch + [k, self.rshape(1, max(1, self.max_elems //
                                               max(1, prod(batch) * m)))[0]]))
        n = b.logical[-1]
        out = Val(self, to, batch + [m, n])
        self.linear(out, a, b, k)
        out.what = "matmul %sx%s->%s %s x %s" % (ta, tb, to, a.logical,
                                                 b.logical)

        def ref():
            nb = len(batch)
            idx = ["b%d" % i for i in range(nb)]
            self.loop_open(out.logical, idx + ["m", "n"])
            if is_float(to):
                self.R("float s = 0.0f;")
                self.R("for (int k = 0; k < %d; k++) s = s + %s * %s;" %
                       (k, self.at(a, idx + ["m", "k"]),
                        self.at(b, idx + ["k", "n"])))
                self.R("%s = %s;" % (self.at(out, idx + ["m", "n"]),
                                     self.rnd(to, "s")))
            else:
                self.R("uint32_t s = 0u;")
                self.R("for (int k = 0; k < %d; k++) s += (uint32_t)%s * "
                       "(uint32_t)%s;" % (k, self.at(a, idx + ["m", "k"]),
                                          self.at(b, idx + ["k", "n"])))
                self.R("%s = (%s)s;" % (self.at(out, idx + ["m", "n"]),
                                        DT[to][1]))
            self.loop_close(len(out.logical))
        return self.compute("matmul", out, [a, b], [], ref)

    def op_mma(self, op, inplace=False, acc=None, a=None, b=None,
               into=None, top=True, layout=None, padding=None):
        u1, u2 = MMA[op]
        tin = a.dt if a is not None else self.rng.choice(["i8", "i8", "i32"])
        if acc is None:
            if inplace:
                sh = self.rshape(self.rng.choice([2, 2, 3]))
                acc = self.new_input("i32", sh, form="load", victim=True)
            else:
                # The research prototype's zero accumulator is a C
                # vector initialized to {0} (then maybe written).
                init = "init-typeinfo" if self.on("init-vectors") and \
                    self.chance(0.3) else None
                sh = self.rshape(self.rng.choice([2, 2, 3]))
                if self.on("const-acc") and self.chance(0.15):
                    acc = self.const_broadcast("i32", sh)
                else:
                    acc = self.pick(lambda v: v.dt == "i32" and
                                    2 <= v.rank <= 3,
                                    lambda: self.new_input("i32", sh,
                                                           form=init))
        batch, m, n = acc.logical[:-2], acc.logical[-2], acc.logical[-1]
        if a is None:
            a = self.pick(lambda v: v.dt == tin and v.rank == acc.rank and
                          v.logical[:-2] == batch and v.logical[-2] == m,
                          lambda: self.new_input(tin, batch + [m, self.dim()]))
        k = a.logical[-1]
        if b is None:
            b = self.pick(lambda v: v.dt == tin and v.logical == batch +
                          [k, n], lambda: self.new_input(tin, batch + [k, n]))
        out = Val(self, "i32", acc.logical)
        out.what = "%s acc i32 %s, %s %s x %s" % (op, acc.logical, tin,
                                                  a.logical, b.logical)

        def ext(v, idx, uns):
            e = self.at(v, idx)
            if uns and v.dt == "i8":
                return "(uint32_t)(uint8_t)%s" % e
            return "(uint32_t)%s" % e

        def ref():
            idx = ["b%d" % i for i in range(len(batch))]
            self.loop_open(out.logical, idx + ["m", "n"])
            self.R("uint32_t s = (uint32_t)%s;" %
                   self.at(acc, idx + ["m", "n"]))
            self.R("for (int k = 0; k < %d; k++) s += %s * %s;" %
                   (k, ext(a, idx + ["m", "k"], u1),
                    ext(b, idx + ["k", "n"], u2)))
            self.R("%s = (int32_t)s;" % self.at(out, idx + ["m", "n"]))
            self.loop_close(len(out.logical))
        if inplace:
            layout = acc.layout
        self.compute(op, out, [acc, a, b], [], ref, layout=layout,
                     padding=padding, into=into, top=top)
        if inplace:
            arr, off, blas = acc.load
            self.store(out, arr, off, blas)
            self.tags.add("inplace-mma")
            if self.on("fanout") and self.chance(0.5):
                acc.uses += 0   # acc stays available: its old values
        return out

    def op_contract(self, op):
        dt = self.dt_choice(TYPES)
        a = self.pick(lambda v: v.dt == dt and 1 <= v.rank <= 3 and
                      self.fine(v),
                      lambda: self.new_input(dt, self.rshape(
                          self.rng.randint(1, 3))))
        ra = a.rank
        b = None
        pairs = None
        for _ in range(3):
            cand = self.pick(lambda v: v.dt == dt and 1 <= v.rank <= 3 and
                             self.fine(v) and v is not a)
            if cand is None:
                break
            ps = [(i, j) for i in range(ra) for j in range(cand.rank)
                  if a.logical[i] == cand.logical[j]]
            if ps:
                b = cand
                self.rng.shuffle(ps)
                pairs = []
                for i, j in ps:
                    if all(i != x and j != y for x, y in pairs):
                        pairs.append((i, j))
                pairs = pairs[:self.rng.randint(1, len(pairs))]
                break
        if b is None:
            m = self.rng.randint(1, ra)
            axes_a = self.rng.sample(range(ra), m)
            rb = self.rng.randint(m, min(3, m + 2))
            axes_b = self.rng.sample(range(rb), m)
            lb = self.rshape(rb)
            for x, y in zip(axes_a, axes_b):
                lb[y] = a.logical[x]
            b = self.new_input(dt, lb)
            pairs = list(zip(axes_a, axes_b))
        axes_a = [i for i, _ in pairs]
        axes_b = [j for _, j in pairs]
        free_a = [i for i in range(a.rank) if i not in axes_a]
        free_b = [j for j in range(b.rank) if j not in axes_b]
        lo = [a.logical[i] for i in free_a] + [b.logical[j] for j in free_b]
        if not lo:
            lo = [1]
        if len(lo) > 4 or prod(lo) > self.max_elems:
            return None
        k = prod(a.logical[i] for i in axes_a)
        out = Val(self, dt, lo)
        self.linear(out, a, b, k)
        out.what = "contract %s %s x %s axes %s %s" % (dt, a.logical,
                                                       b.logical, axes_a,
                                                       axes_b)
        m = len(pairs)

        def ref():
            fo = ["f%d" % i for i in range(len(lo))]
            cs = ["c%d" % i for i in range(m)]
            self.loop_open(lo, fo)
            ia = []
            fi = 0
            for d in range(a.rank):
                ia.append(cs[axes_a.index(d)] if d in axes_a else fo[fi])
                if d not in axes_a:
                    fi += 1
            ib = []
            for d in range(b.rank):
                ib.append(cs[axes_b.index(d)] if d in axes_b else fo[fi])
                if d not in axes_b:
                    fi += 1
            if is_float(dt):
                self.R("float s = 0.0f;")
            else:
                self.R("uint32_t s = 0u;")
            self.loop_open([a.logical[i] for i in axes_a], cs)
            if is_float(dt):
                self.R("s = s + %s * %s;" % (self.at(a, ia), self.at(b, ib)))
            else:
                self.R("s += (uint32_t)%s * (uint32_t)%s;" %
                       (self.at(a, ia), self.at(b, ib)))
            self.loop_close(m)
            self.R("%s = %s;" % (self.at(out, fo if lo != [1] or
                                         len(fo) == 1 else fo),
                                 self.rnd(dt, "s") if is_float(dt) else
                                 "(%s)s" % DT[dt][1]))
            self.loop_close(len(lo))
        return self.compute("contract", out, [a, b],
                            [("tlxp_i%d" % m, ivec(axes_a)),
                             ("tlxp_i%d" % m, ivec(axes_b))], ref)

    def op_convolution(self, op):
        dt = self.dt_choice(TYPES)
        # 16 channels or more: one GEMM per kernel tap over the input in
        # place (tlx-nd-to-2d's shifted GEMMs; channels last: one per output
        # row and kernel row); 4-8: channels-last rows of kernel width x
        # channels on both sides of the 16 elements from which a GEMM per
        # output row and kernel row reads them in place; fewer: im2col.
        band = self.rng.random()
        nc = (self.rng.randint(16, 20) if band < 0.3 else
              self.rng.randint(4, 8) if band < 0.5 else
              self.rng.randint(1, 3))
        def new_image():
            spatial = self.rshape(self.rng.choice([1, 2]),
                                  max(4, self.max_elems // (2 * nc + 4)))
            r = 2 + len(spatial)
            # Channels last (N, spatial.., C) now and then, as the shifted
            # and row-tap GEMMs read the input in place.
            layout = ([0] + list(range(2, r)) + [1]
                      if self.on("layouts") and self.chance(0.3) else None)
            return self.new_input(dt, [self.rng.randint(1, 2), nc] + spatial,
                                  layout=layout)
        x = self.pick(lambda v: v.dt == dt and 3 <= v.rank <= 4 and
                      self.fine(v), new_image)
        ns = x.rank - 2
        nb, c, ins = x.logical[0], x.logical[1], x.logical[2:]
        two = self.chance(0.25)
        # 1x1 kernels with unit strides: one GEMM per image over its pixels
        # in tlx-nd-to-2d (no im2col); otherwise drawn once in ~100.
        pointwise = self.chance(0.2)
        for _ in range(50):
            ks = [1 if pointwise else self.rng.randint(1, min(3, e))
                  for e in ins]
            st = [1] * ns if two or pointwise else [self.rng.randint(1, 2)
                                                    for _ in range(ns)]
            idl = [1] * ns if two or pointwise else [
                self.rng.choice([1, 1, 2]) for _ in range(ns)]
            kdl = [1] * ns if two else [self.rng.choice([1, 1, 2])
                                        for _ in range(ns)]
            outs = []
            for i in range(ns):
                ein = (ins[i] - 1) * idl[i] + 1
                ek = (ks[i] - 1) * kdl[i] + 1
                outs.append((ein - ek) // st[i] + 1 if ein >= ek else 0)
            if min(outs) >= 1:
                break
        else:
            return None
        o = self.rng.randint(1, 3)
        lo = [nb, o] + outs
        if prod(lo) > self.max_elems:
            return None
        w = self.new_input(dt, [o, c] + ks)
        kk = c * prod(ks)
        out = Val(self, dt, lo)
        self.linear(out, x, w, kk)
        out.what = "convolution %s in %s kernel %s st %s idil %s kdil %s" % (
            dt, x.logical, w.logical, st, idl, kdl)

        def ref():
            xs = ["x%d" % i for i in range(ns)]
            ts = ["u%d" % i for i in range(ns)]
            self.loop_open(lo, ["n", "o"] + xs)
            self.R("float s = 0.0f;" if is_float(dt) else "uint32_t s = 0u;")
            self.loop_open([c] + ks, ["c"] + ts)
            conds = []
            pidx = []
            for i in range(ns):
                self.R("int p%d = %s*%d + %s*%d;" % (i, xs[i], st[i], ts[i],
                                                    kdl[i]))
                if idl[i] > 1:
                    conds.append("p%d %% %d == 0" % (i, idl[i]))
                    pidx.append("(p%d / %d)" % (i, idl[i]))
                else:
                    pidx.append("p%d" % i)
            prodx = ("%s * %s" if is_float(dt) else
                     "(uint32_t)%s * (uint32_t)%s") % (
                self.at(x, ["n", "c"] + pidx), self.at(w, ["o", "c"] + ts))
            stmt = ("s = s + %s;" if is_float(dt) else "s += %s;") % prodx
            if conds and is_float(dt):
                # A hole of the dilated input is a zero in the arithmetic
                # (docs/ops.md): 0 * NaN = NaN.
                self.R("if (%s) %s else s = s + 0.0f * %s;" % (
                    " && ".join(conds), stmt, self.at(w, ["o", "c"] + ts)))
            elif conds:
                self.R("if (%s) %s" % (" && ".join(conds), stmt))
            else:
                self.R(stmt)
            self.loop_close(ns + 1)
            self.R("%s = %s;" % (self.at(out, ["n", "o"] + xs),
                                 self.rnd(dt, "s") if is_float(dt) else
                                 "(%s)s" % DT[dt][1]))
            self.loop_close(len(lo))
        extras = []
        if not two:
            def z(vs):
                return [0 if e == 1 and self.chance(0.3) else e for e in vs]
            vt = "tlxp_i%d" % ns
            extras = [(vt, ivec(z(st))), (vt, ivec(z(idl))),
                      (vt, ivec(z(kdl)))]
        return self.compute("convolution", out, [x, w], extras, ref)

    UNARY_C = {"tanh": "tanhf(x)", "sigmoid": "1.0f / (1.0f + expf(-x))",
               "sin": "sinf(x)", "cos": "cosf(x)", "exp": "expf(x)",
               "exp2": "exp2f(x)", "log": "logf(x)", "log2": "log2f(x)",
               "log10": "log10f(x)", "sqrt": "sqrtf(x)", "fabs": "fabsf(x)",
               "floor": "floorf(x)", "ceil": "ceilf(x)",
               "relu": "tlxp_fmaximum(x, 0.0f)"}

    def unary_ok(self, op, v):
        if op == "relu":
            return self.on("nan") or not v.nan
        if not is_float(v.dt):
            return False
        if op == "fabs":
            return True
        if v.nan:
            return False
        if op in ("tanh", "sigmoid"):
            return v.mag <= 1e6
        if op in ("sin", "cos"):
            return v.mag <= 64 and v.dev() <= 1e-3
        if op in ("exp", "exp2"):
            return v.exact and v.mag <= 8
        if op in ("log", "log2", "log10", "sqrt"):
            return v.exact and v.pos
        if op in ("floor", "ceil"):
            return v.exact
        return False

    def unary_model(self, op, out, v):
        out.nan = v.nan
        if op in ("relu", "fabs"):
            out.copy_model(v)
            out.pos = v.pos
            return
        if op in ("floor", "ceil"):
            out.copy_model(v)
            out.mag = math.ceil(v.mag)
            out.q = 0 if v.q is not None else None
            out.pos = False
            return
        d = v.dev()
        if op == "tanh":
            self.approx(out, 1.0, d)
        elif op == "sigmoid":
            self.approx(out, 1.0, 0.25 * d, pos=v.mag <= 8)
        elif op in ("sin", "cos"):
            self.approx(out, 1.0, d)
        elif op in ("exp", "exp2"):
            m = math.exp(v.mag) if op == "exp" else 2.0 ** v.mag
            self.approx(out, m, 0.0, pos=True)
            out.err = 2.0 ** -17 * m
        elif op in ("log", "log2", "log10"):
            self.approx(out, abs(math.log(1 / 64.0)) +
                        abs(math.log(max(v.mag, 1.0))) + 1, 0.0)
        elif op == "sqrt":
            self.approx(out, math.sqrt(v.mag) + 1, 0.0, pos=True)

    def op_unary(self, op, src=None, into=None, top=True, layout=None,
                 padding=None):
        v = src or self.pick(
            lambda v: self.unary_ok(op, v) and
            (v.dt in FLOATS or op == "relu"),
            lambda: self.new_input(
                self.dt_choice(TYPES if op == "relu" else FLOATS),
                self.rshape(self.rng.randint(1, 4)),
                pos=op in ("log", "log2", "log10", "sqrt")))
        if not self.unary_ok(op, v):
            return None
        out = Val(self, v.dt, v.logical)
        self.unary_model(op, out, v)
        out.what = "%s %s %s" % (op, v.dt, v.logical)

        def ref():
            idx = ["i%d" % i for i in range(v.rank)]
            self.loop_open(v.logical, idx)
            if is_float(v.dt):
                self.R("float x = %s;" % self.at(v, idx))
                self.R("%s = %s;" % (self.at(out, idx),
                                     self.rnd(v.dt, self.UNARY_C[op])))
            else:
                self.R("%s x = %s;" % (DT[v.dt][1], self.at(v, idx)))
                self.R("%s = x > 0 ? x : 0;" % self.at(out, idx))
            self.loop_close(v.rank)
        return self.compute(op, out, [v], [], ref, layout=layout,
                            padding=padding, into=into, top=top)

    # C vector operators on tensor values (tlx-vector-ops): a binary
    # operator of two vectors in one storage order, with a splat scalar,
    # or a negation; typed like its first operand.
    COPS = {"f32": ["+", "-", "*", "*k", "*k+", "neg"],
            "i32": ["+", "-", "*", "&", "|", "^", "*k", "neg"]}

    def cop_model(self, out, a, b, opr, k):
        """Error model of one float C operator (exact on exact inputs
        while the result fits the mantissa)."""
        out.nan = a.nan or (b is not None and b.nan)
        if opr == "neg":
            out.copy_model(a)
            out.pos = False
            return
        if opr in ("*k", "*k+"):
            kv = Val(self, "f32", [1])
            kv.mag, kv.q = abs(k), 3
            prod_ = Val(self, "f32", a.logical)
            self.linear(prod_, a, kv, 1)
            if opr == "*k":
                out.copy_model(prod_)
                return
            a = prod_
        if opr == "*":
            self.linear(out, a, b, 1)
            return
        out.pos = False
        mag = a.mag + b.mag
        q = max(a.q, b.q) if a.q is not None and b.q is not None else None
        if a.exact and b.exact and q is not None and \
                mag * 2.0 ** q < 2.0 ** MANT_BITS:
            out.mag, out.q, out.err, out.rel = mag, q, 0.0, 0.0
            return
        out.mag, out.q, out.rel = mag + a.dev() + b.dev(), None, 0.0
        out.err = a.dev() + b.dev() + out.mag * EPS_ACC

    def op_cop(self, op, a=None, b=None, opr=None):
        """A C operator: random operands and operator, or a opr b."""
        if not self.on("c-operators") and a is None:
            return None
        dt = a.dt if a is not None else self.dt_choice(["f32", "i32"])

        def vector_input(logical=None, layout=None):
            return self.new_input(
                dt, logical or self.rshape(self.rng.randint(1, 3)),
                form="typeinfo", layout=layout)
        if a is None:
            a = self.pick(lambda v: v.data and v.dt == dt and self.fine(v) and
                          not v.nan, vector_input)
        if not a.data or not self.fine(a) or a.nan:
            return None
        opr = opr or self.rng.choice(self.COPS[dt])
        if b is None and opr not in ("*k", "neg"):
            b = self.pick(lambda v: v is not a and v.data and v.dt == dt and
                          v.logical == a.logical and v.layout == a.layout and
                          self.fine(v) and not v.nan,
                          lambda: vector_input(a.logical, a.layout))
            if not b.data:
                return None
        k = self.rng.randint(-16, 16) / 8.0 if dt == "f32" else \
            self.rng.randint(-9, 9)
        kc = cfloat(k) if dt == "f32" else str(k)
        expr = {"neg": "-%s" % a.data, "*k": "%s * %s" % (a.data, kc),
                "*k+": "%s * %s + %s" % (a.data, kc, b and b.data)}.get(
                    opr, "%s %s %s" % (a.data, opr, b and b.data))
        out = Val(self, dt, a.logical)
        out.layout = list(a.layout)
        out.padding = self.rand_padding(out.rank)
        if dt == "f32":
            self.cop_model(out, a, b, opr, k)
        out.what = "C operator %s on %s %s" % (opr, dt, a.logical)
        for v in [a] + ([b] if b else []):
            self.use(v)
        d = "d%d" % out.id
        out.tok = "t%d" % out.id
        self.T("%s %s = %s;" % (self.vt(dt, out.count), d, expr))
        out.data = d
        self.rdecl(out)
        self.R("{ /* C operator %s */" % opr)
        self.ind += 1
        idx = ["i%d" % i for i in range(out.rank)]
        self.loop_open(out.logical, idx)
        x = self.at(a, idx)
        y = self.at(b, idx) if b else None
        if dt == "f32":
            e = {"neg": "-%s" % x, "*k": "%s * %s" % (x, kc),
                 "*k+": "%s * %s + %s" % (x, kc, y)}.get(
                     opr, "%s %s %s" % (x, opr, y))
        else:  # wrapping 32-bit arithmetic, as the vector operators do
            u = "(uint32_t)"
            e = {"neg": "0u - %s%s" % (u, x),
                 "*k": "%s%s * %s%s" % (u, x, u, kc)}.get(
                     opr, "%s%s %s %s%s" % (u, x, opr, u, y))
            e = "(int32_t)(%s)" % e
        self.R("%s = %s;" % (self.at(out, idx), e))
        self.loop_close(out.rank)
        self.ind -= 1
        self.R("}")
        # C reads the result's positions before a typeinfo names it (its
        # layout is its operands').
        if self.chance(0.4):
            self.escape(out, late_ok=False)
        self.T("int %s = tensor_typeinfo(%s, %s, %s, %s);" %
               (out.tok, d, ivec(out.shape), ivec(out.layout),
                ivec(out.padding)))
        self.tags.add("c-operators")
        self.vals.append(out)
        self.opnames.append("cop")
        if out.nbytes > STACK_LIMIT:
            self.tags.add("big")
        return out

    def op_broadcast(self, op):
        dt = self.dt_choice(TYPES)
        v = self.pick(lambda v: v.dt == dt and v.rank <= 3,
                      lambda: self.new_input(dt, self.rshape(
                          self.rng.randint(1, 3))))
        if self.chance(0.25):
            # research-prototype fill form: v's shape, every element = s
            if is_float(dt):
                s = self.rng.randint(-16, 16) / 8.0
            else:
                s = self.rng.randint(-100, 100)
            out = Val(self, dt, v.logical)
            if is_float(dt):
                out.mag, out.q, out.pos = max(abs(s), 1 / 8.0), 3, s > 0

            def ref():
                self.R("for (int i = 0; i < %d; i++) %s[i] = %s;" %
                       (out.count, out.ref, cfloat(s) if is_float(dt)
                        else "(%s)%d" % (DT[dt][1], s)))
            out.what = "broadcast(fill %r) %s %s" % (s, dt, v.logical)
            return self.compute("broadcast", out, [v],
                                [(DT[dt][0], scalar_c(dt, s))], ref)
        ro = v.rank + self.rng.choice([0, 1, 1, 2])
        ro = min(ro, 4)
        lo = self.rshape(ro - v.rank) + [
            (self.dim() if e == 1 and self.chance(0.7) else e)
            for e in v.logical]
        if prod(lo) > self.max_elems:
            return None
        out = Val(self, dt, lo)
        out.copy_model(v)
        out.what = "broadcast %s %s -> %s" % (dt, v.logical, lo)

        def ref():
            idx = ["i%d" % i for i in range(ro)]
            self.loop_open(lo, idx)
            src = []
            for j in range(v.rank):
                oj = ro - v.rank + j
                src.append("0" if v.logical[j] == 1 else idx[oj])
            self.R("%s = %s;" % (self.at(out, idx), self.at(v, src)))
            self.loop_close(ro)
        return self.compute("broadcast", out, [v], [], ref)

    def op_reduce(self, op):
        kind = op.split(".")[1]
        allowed = INTS if kind in ("and", "or", "xor") else TYPES
        dt = self.dt_choice(allowed)

        def ok(v):
            if v.dt != dt or v.rank > 4:
                return False
            if kind in ("max", "min") and v.nan and not self.on("nan"):
                return False
            if kind == "mul" and is_float(dt):
                return v.exact and v.mag <= 2 and v.q is not None
            return kind in ("max", "min") or self.fine(v)
        v = self.pick(ok, lambda: self.new_input(dt, self.rshape(
            self.rng.randint(1, 3))))
        if not ok(v):
            return None
        win = None
        if self.on("axis-reductions") and v.rank > 1 and self.chance(0.4):
            axis = self.rng.choice(["rows", "columns", "full"])
            win = {"rows": [1] * (v.rank - 1) + [v.logical[-1]],
                   "columns": v.logical[:-1] + [1],
                   "full": list(v.logical)}[axis]
            if kind == "mul" and is_float(dt) and prod(win) > 4:
                win = None
            else:
                self.tags.add("axis-reductions")
        if win is None:
            for _ in range(20):
                win = [self.rng.randint(1, e) for e in v.logical]
                if kind != "mul" or not is_float(dt) or prod(win) <= 4:
                    break
            else:
                win = [1] * v.rank
        st = [self.rng.choice([1, 1, 2, 3]) for _ in range(v.rank)]
        lo = [(e - w) // s + 1 for e, w, s in zip(v.logical, win, st)]
        out = Val(self, dt, lo)
        W = prod(win)
        if is_float(dt):
            if kind in ("max", "min"):
                out.copy_model(v)
            elif kind == "add":
                self.summed(out, v, W)
            else:
                out.mag = v.mag ** W
                out.q = v.q * W
                out.pos = v.pos
                if out.mag * 2.0 ** out.q >= 2.0 ** MANT_BITS:
                    out.q = None
                    out.err = 4 * W * out.mag * EPS_ACC
                    out.rel = ULP["bf16"] if dt == "bf16" else 0.0
                elif dt == "bf16":
                    out.mag *= 1 + 2.0 ** -7
        out.what = "%s %s %s window %s strides %s" % (op, dt, v.logical, win,
                                                      st)

        def ref():
            oi = ["o%d" % i for i in range(v.rank)]
            wi = ["w%d" % i for i in range(v.rank)]
            self.loop_open(lo, oi)
            acc_t = "float" if is_float(dt) else (
                "uint32_t" if kind in ("add", "mul") else DT[dt][1])
            self.R("%s acc = 0; int first = 1;" % acc_t)
            self.loop_open(win, wi)
            x = self.at(v, ["%s*%d + %s" % (o, s, w)
                            for o, s, w in zip(oi, st, wi)])
            if not is_float(dt) and kind in ("add", "mul"):
                x = "(uint32_t)" + x
            f = {"add": "acc + x", "mul": "acc * x", "and": "acc & x",
                 "or": "acc | x", "xor": "acc ^ x"}.get(kind)
            if kind in ("max", "min"):
                if is_float(dt):
                    f = "tlxp_f%simum(acc, x)" % kind
                else:
                    f = "(x %s acc ? x : acc)" % (">" if kind == "max"
                                                  else "<")
            self.R("%s x = %s;" % (acc_t, x))
            self.R("if (first) { acc = x; first = 0; } else acc = %s;" % f)
            self.loop_close(v.rank)
            res = "acc"
            if is_float(dt):
                res = self.rnd(dt, "acc")
            else:
                res = "(%s)acc" % DT[dt][1]
            self.R("%s = %s;" % (self.at(out, oi), res))
            self.loop_close(v.rank)
        return self.compute("reduce." + kind, out, [v],
                            [("tlxp_i%d" % v.rank, ivec(win)),
                             ("tlxp_i%d" % v.rank, ivec(st))], ref)

    def op_transpose(self, op, src=None, perm=None, into=None, top=True,
                     padding=None):
        v = src or self.pick(lambda v: v.rank >= 2,
                             lambda: self.new_input(self.dt_choice(TYPES),
                                                    self.rshape(
                                                        self.rng.randint(
                                                            2, 4))))
        if src is None and self.chance(0.3):
            # one-operand form: logical transpose of the last two dims
            lo = v.logical[:-2] + [v.logical[-1], v.logical[-2]]
            out = Val(self, v.dt, lo)
            out.copy_model(v)
            out.what = "transpose(t) %s %s" % (v.dt, v.logical)

            def ref1():
                idx = ["i%d" % i for i in range(v.rank)]
                self.loop_open(lo, idx)
                si = idx[:-2] + [idx[-1], idx[-2]]
                self.R("%s = %s;" % (self.at(out, idx), self.at(v, si)))
                self.loop_close(v.rank)
            return self.compute("transpose", out, [v], [], ref1)
        if perm is None:
            perm = list(range(v.rank))
            self.rng.shuffle(perm)
        out = Val(self, v.dt, v.logical)
        out.copy_model(v)
        out.what = "transpose %s %s layout %s -> %s" % (v.dt, v.logical,
                                                        v.layout, perm)
        return self.compute("transpose", out, [v],
                            [("tlxp_i%d" % v.rank, ivec(perm))],
                            lambda: self.ref_copy(out, v), layout=perm,
                            padding=padding, into=into, top=top)

    def op_reshape_permute(self, op):
        v = self.pick(lambda v: True, lambda: self.new_input(
            self.dt_choice(TYPES), self.rshape(self.rng.randint(1, 3))))
        n = v.count
        lo = []
        rest = n
        for _ in range(self.rng.randint(0, 3)):
            divs = [d for d in range(1, rest + 1) if rest % d == 0]
            d = self.rng.choice(divs)
            lo.append(d)
            rest //= d
        lo.append(rest)
        out = Val(self, v.dt, lo)
        out.copy_model(v)
        out.what = "reshape.permute %s %s -> %s" % (v.dt, v.logical, lo)
        return self.compute("reshape.permute", out, [v], [],
                            lambda: self.ref_copy(out, v))

    def op_reshape_block(self, op):
        v = self.pick(lambda v: v.rank <= 3, lambda: self.new_input(
            self.dt_choice(TYPES), self.rshape(self.rng.randint(1, 3))))
        blocks = []
        for e in v.logical:
            divs = [d for d in range(1, e + 1) if e % d == 0]
            blocks.append(self.rng.choice(divs))
        lo = [e // b for e, b in zip(v.logical, blocks)] + \
            [b for b in blocks if b > 1]
        out = Val(self, v.dt, lo)
        out.copy_model(v)
        out.what = "reshape.block %s %s blocks %s" % (v.dt, v.logical,
                                                      blocks)

        def ref():
            oq = ["q%d" % i for i in range(v.rank)]
            orr = ["r%d" % i for i in range(v.rank) if blocks[i] > 1]
            self.loop_open(lo, oq + orr)
            src = []
            j = 0
            for i in range(v.rank):
                if blocks[i] > 1:
                    src.append("%s*%d + %s" % (oq[i], blocks[i], orr[j]))
                    j += 1
                else:
                    src.append(oq[i])
            self.R("%s = %s;" % (self.at(out, oq + orr), self.at(v, src)))
            self.loop_close(len(lo))
        return self.compute("reshape.block", out, [v],
                            [("tlxp_i%d" % v.rank, ivec(blocks))], ref)

    def op_pad(self, op):
        v = self.pick(lambda v: v.rank <= 4, lambda: self.new_input(
            self.dt_choice(TYPES), self.rshape(self.rng.randint(1, 3))))
        low = [self.rng.choice([0, 0, 1, 2]) for _ in range(v.rank)]
        high = [self.rng.choice([0, 0, 1, 3]) for _ in range(v.rank)]
        lo = [e + a + b for e, a, b in zip(v.logical, low, high)]
        if prod(lo) > self.cap2:
            return None
        dt = v.dt
        if is_float(dt):
            s = self.rng.randint(1 if v.pos else -16, 16) / 8.0
        else:
            s = self.rng.randint(-100, 100)
        out = Val(self, dt, lo)
        out.copy_model(v)
        if is_float(dt):
            out.mag = max(v.mag, abs(s))
        out.what = "pad %s %s low %s high %s" % (dt, v.logical, low, high)

        def ref():
            idx = ["i%d" % i for i in range(v.rank)]
            self.loop_open(lo, idx)
            cond = " && ".join("%s >= %d && %s < %d" % (i, a, i, a + e)
                               for i, a, e in zip(idx, low, v.logical))
            sv = cfloat(s) if is_float(dt) else "(%s)%d" % (DT[dt][1], s)
            self.R("%s = (%s) ? %s : %s;" % (
                self.at(out, idx), cond,
                self.at(v, ["%s - %d" % (i, a) for i, a in zip(idx, low)]),
                sv))
            self.loop_close(v.rank)
        return self.compute("pad", out, [v],
                            [("tlxp_i%d" % v.rank, ivec(low)),
                             ("tlxp_i%d" % v.rank, ivec(high)),
                             (DT[dt][0], scalar_c(dt, s))], ref)

    def op_concat(self, op):
        a = self.pick(lambda v: v.rank <= 4, lambda: self.new_input(
            self.dt_choice(TYPES), self.rshape(self.rng.randint(1, 3))))
        axis = self.rng.randrange(a.rank)

        def okb(v):
            return (v.dt == a.dt and v.rank == a.rank and
                    all(x == y for i, (x, y) in enumerate(
                        zip(v.logical, a.logical)) if i != axis))
        lb = list(a.logical)
        lb[axis] = self.dim()
        b = self.pick(okb, lambda: self.new_input(a.dt, lb))
        lo = list(a.logical)
        lo[axis] += b.logical[axis]
        if prod(lo) > self.cap2:
            return None
        out = Val(self, a.dt, lo)
        out.copy_model(a)
        if is_float(a.dt):
            out.mag = max(a.mag, b.mag)
            out.err = max(a.err, b.err)
            out.rel = max(a.rel, b.rel)
            out.q = None if a.q is None or b.q is None else max(a.q, b.q)
            out.pos = a.pos and b.pos
            out.nan = a.nan or b.nan
        out.what = "concat %s %s + %s axis %d" % (a.dt, a.logical, b.logical,
                                                  axis)

        def ref():
            idx = ["i%d" % i for i in range(a.rank)]
            self.loop_open(lo, idx)
            ib = list(idx)
            ib[axis] = "%s - %d" % (idx[axis], a.logical[axis])
            self.R("%s = %s < %d ? %s : %s;" % (
                self.at(out, idx), idx[axis], a.logical[axis],
                self.at(a, idx), self.at(b, ib)))
            self.loop_close(a.rank)
        return self.compute("concat", out, [a, b], [("int", str(axis))], ref)

    def op_tovector(self, op):
        """tovector; the vector escapes, or becomes a tensor again."""
        v = self.pick(lambda v: True, lambda: self.new_input(
            self.dt_choice(TYPES), self.rshape(self.rng.randint(1, 3))))
        self.use(v)
        vt = self.vt(v.dt, v.count)
        fn = self.proto("tovector", vt, ["int"])
        # The vector in logical row-major order: a 1-D value.
        vec = Val(self, v.dt, [v.count])
        vec.copy_model(v)
        vec.ref = v.ref
        vec.data = "d%d" % vec.id
        vec.what = "tovector of v%d (%s)" % (v.id, v.what)
        self.T("%s %s = %s(%s);" % (vt, vec.data, fn, v.tok))
        self.opnames.append("tovector")
        reuse = self.on("tovector-reuse") and self.chance(0.7)
        if not reuse:
            self.escape(vec, force=True)
            return vec
        out = Val(self, v.dt, v.logical)
        out.copy_model(v)
        out.tok = "t%d" % out.id
        if self.chance(0.6):
            out.layout = self.rand_layout(v.rank)
            out.padding = self.rand_padding(v.rank)
            self.T("int %s = vector_totensor(%s, %s, %s, %s);" %
                   (out.tok, vec.data, ivec(out.shape), ivec(out.layout),
                    ivec(out.padding)))
            if out.layout == list(range(out.rank)):
                out.data = vec.data
            out.what = "totensor(tovector) %s %s layout %s -> %s" % (
                v.dt, v.logical, v.layout, out.layout)
        else:
            # tovector's result typeinfo: 1-D
            out.logical = [v.count]
            out.layout = [0]
            out.padding = self.rand_padding(1)
            self.T("int %s = tensor_typeinfo(%s, %s, %s, %s);" %
                   (out.tok, vec.data, ivec(out.shape), ivec(out.layout),
                    ivec(out.padding)))
            out.data = vec.data
            out.what = "typeinfo(tovector) %s %s layout %s" % (
                v.dt, v.logical, v.layout)
        self.rdecl(out)
        self.R("{ /* tovector, then a token again */")
        self.ind += 1
        self.ref_copy(out, v)
        self.ind -= 1
        self.R("}")
        self.vals.append(out)
        self.tags.add("tovector-reuse")
        if self.chance(0.3):
            self.escape(vec)
        return out

    # -- stores, escapes ---------------------------------------------------
    def store(self, v, arr=None, off=None, blas=None, why="store"):
        """tensor_store of v's token; arr None: a fresh output array."""
        if arr is None:
            blas = self.rand_blas(v.shape)
            off = self.rand_off()
            arr = self.new_arr(v.dt, off + span(v.shape, blas) + 3, "out")
        self.use(v)
        self.T("tensor_store(%s + %d, %s, %s);" % (arr.name, off, v.tok,
                                                   ivec(blas)))
        self.ref_mem(v, arr, off, blas, False)
        arr.written = True
        arr.nwrites += 1
        arr.regions.append((off, blas, v.shape))
        if is_float(v.dt):
            arr.atol = max(arr.atol, v.err)
            arr.rtol = max(arr.rtol, v.rel)
        v.observed = True
        arr.why = "%s of v%d (%s)" % (why, v.id, v.what)
        return arr

    def escapes_on(self):
        return any(self.on(f) for f in ("escape-arg", "escape-global",
                                        "escape-elem"))

    def can_escape(self, v):
        if v.data is None or not self.escapes_on():
            return False
        if v.merged and not self.on("merge-escaped"):
            return False
        if v.nbytes > STACK_LIMIT and not self.on("escape-big"):
            return False
        return True

    def cap_arrays(self, v):
        k = self.ncap
        self.ncap += 1
        got, exp = "C%d" % k, "C%d_r" % k
        st = DT[v.dt][2]
        self.decls.append("static %s %s[%d];" % (DT[v.dt][0], got, v.count))
        self.decls.append("static %s %s[%d];" % (st, exp, v.count))
        self.inits.append("memset(%s, 0x5a, sizeof %s); "
                          "memset(%s, 0x5a, sizeof %s);" % (got, got, exp,
                                                             exp))
        return got, exp

    def ref_storage_order(self, v, exp, only=None):
        """exp[storage order of v's layout] = v_r (reference)."""
        idx = ["i%d" % d for d in range(v.rank)]
        pst = rm_strides(v.shape)
        addr = lin([idx[v.layout[k]] for k in range(v.rank)], pst)
        self.R("{")
        self.ind += 1
        self.loop_open(v.logical, idx)
        e = self.at(v, idx)
        if v.dt == "bf16":
            e = "tlxp_f2bf(%s)" % e
        if only is None:
            self.R("%s[%s] = %s;" % (exp, addr, e))
        else:
            self.R("{ int s = %s; if (%s) %s[s] = %s; }" % (
                addr, " || ".join("s == %d" % j for j in only), exp, e))
        self.loop_close(v.rank)
        self.ind -= 1
        self.R("}")

    def escape(self, v, late_ok=True, force=False):
        kinds = [k for k in ("escape-arg", "escape-global", "escape-elem")
                 if self.on(k)]
        if not kinds or not self.can_escape(v):
            if not force:
                return
            # A plain copy right after the definition (as gen.py does).
            kinds = ["copy"]
            late_ok = False
        if v.uses and not self.on("escape-late"):
            # an op already read v (values made inside a merge or an
            # in-place construct): escaping now is escaping late
            if not force:
                return
            kinds = ["copy"]
        kind = self.rng.choice(kinds)
        v.will_escape = True
        if v.uses and kind != "copy":
            self.tags.add("escape-late")

        def do():
            got, exp = self.cap_arrays(v)
            vt = self.vt(v.dt, v.count)
            only = None
            if kind == "copy":
                self.T("memcpy(%s, &%s, %d);" % (got, v.data, v.nbytes))
            elif kind == "escape-arg":
                self.T("tlxp_esc_%s(%s, %s, %d);" % (vt, v.data, got,
                                                     v.nbytes))
            elif kind == "escape-global":
                g = "tlxp_g%d_%d" % (self.index, self.ncap)
                self.globs.append("static %s %s;" % (vt, g))
                self.T("%s = %s;" % (g, v.data))
                self.post.append("memcpy(%s, &%s, %d);" % (got, g, v.nbytes))
            else:
                only = sorted(set(self.rng.randrange(v.count)
                                  for _ in range(self.rng.randint(1, 4))))
                for j in only:
                    self.T("%s[%d] = %s[%d];" % (got, j, v.data, j))
            self.ref_storage_order(v, exp, only)
            tol = (v.err, v.rel) if is_float(v.dt) else (0.0, 0.0)
            self.checks.append(("%s v%d (%s)%s" % (
                kind, v.id, v.what, " late" if late else ""), got, exp,
                v.dt, v.count, tol[0], tol[1]))
            v.observed = True
            if kind == "copy":
                return
            v.escaped = True
            self.tags.add(kind)
            if v.merged:
                self.tags.add("merge-escaped")
            if v.nbytes > STACK_LIMIT:
                self.tags.add("escape-big")
        late = late_ok and self.on("escape-late") and self.chance(0.5)
        if late:
            self.tags.add("escape-late")
            self.pending.append([self.rng.randint(1, 3), do])
        else:
            do()

    def tick(self):
        """After an op: late escapes whose time has come."""
        keep = []
        for p in self.pending:
            p[0] -= 1
            if p[0] <= 0:
                p[1]()
            else:
                keep.append(p)
        self.pending = keep

    # -- merges -----------------------------------------------------------
    def mergeable(self, v):
        if v.tok is None or v.rank > 4:
            return False
        if not self.on("merge-layout") and (
                v.layout != list(range(v.rank)) or any(v.padding)):
            return False
        if not self.on("merge-big") and v.nbytes > STACK_LIMIT:
            return False
        if not self.on("merge-wide-bf16") and v.dt == "bf16" and \
                v.count > 256:
            return False
        if not self.on("merge-escaped") and (v.escaped or v.will_escape):
            return False
        if not self.on("merge-load") and v.load is not None and \
                v.load[0].nwrites != v.load_w:
            return False  # its array was written since the load
        return True

    def keep_ops(self, x):
        """Elementwise ops that keep x's type and that x may feed."""
        cands = ["relu"] if not is_float(x.dt) else \
            ["relu", "fabs", "floor", "ceil"]
        return [op for op in cands if self.unary_ok(op, x)]

    def twin(self, x):
        """A value with x's type, shape, layout and padding."""
        self.no_helper = True
        try:
            return self.twin_(x)
        finally:
            self.no_helper = False

    def twin_(self, x):
        c = self.rng.random()
        if c < 0.35:
            return self.new_input(x.dt, x.logical, form="load",
                                  layout=x.layout, padding=x.padding)
        ops = self.keep_ops(x)
        if c < 0.7 and ops:
            return self.op_unary(self.rng.choice(ops), src=x,
                                 layout=x.layout, padding=x.padding)
        return self.op_transpose("transpose", src=x, perm=x.layout,
                                 padding=x.padding)

    def construct_merge(self):
        kinds = [k for k in ("merge-if", "merge-select", "merge-loop",
                             "merge-data") if self.on(k)]
        if not kinds:
            return None
        kind = self.rng.choice(kinds)
        if kind == "merge-loop" and self.chance(0.35):
            return self.merge_loop_mma()
        if kind in ("merge-if", "merge-select") and \
                self.on("merge-load") and self.on("store-over-input") and \
                self.chance(0.3):
            return self.merge_loads_written(kind)
        r = self.rng.randint(1, 3)
        ident = not self.on("merge-layout")
        x = self.pick(self.mergeable, lambda: self.new_input(
            self.dt_choice(TYPES), self.rshape(r),
            layout=list(range(r)) if ident else None,
            padding=[0] * r if ident else None))
        if not self.mergeable(x):
            return None
        if kind == "merge-data":
            return self.merge_data(x)
        if kind == "merge-loop":
            return self.merge_loop(x)
        m = Val(self, x.dt, x.logical)
        m.layout, m.padding = list(x.layout), list(x.padding)
        m.tok = "t%d" % m.id
        self.rdecl(m)
        f = self.flag()
        inbranch = kind == "merge-if" and self.chance(0.5)
        if inbranch:
            # op computed in the then-branch, the else-branch is another
            # value: typeinfo of a phi of the data, or of a loaded tensor
            y = self.twin(x) if self.chance(0.5) else x
            self.T("int %s;" % m.tok)
            self.T("if (%s) {" % f)
            self.R("if (%s) {" % f)
            self.ind += 1
            op = self.rng.choice(self.keep_ops(x))
            self.op_unary(op, src=x, into=m, top=False,
                          layout=x.layout, padding=x.padding)
            self.ind -= 1
            self.T("} else {")
            self.R("} else {")
            self.ind += 1
            self.T("%s = %s;" % (m.tok, y.tok))
            self.ref_copy(m, y)
            self.ind -= 1
            self.T("}")
            self.R("}")
            self.use(y)
            m.copy_model(x)
            self.join_model(m, x, y)
            m.what = "if(%s) %s(v%d) else v%d" % (f, op, x.id, y.id)
        else:
            y = self.twin(x)
            if not (self.mergeable(x) and self.mergeable(y)):
                return y
            self.use(x)
            self.use(y)
            if kind == "merge-if":
                self.T("int %s;" % m.tok)
                self.T("if (%s) %s = %s; else %s = %s;" % (f, m.tok, x.tok,
                                                           m.tok, y.tok))
            else:
                self.T("int %s = (%s) ? %s : %s;" % (m.tok, f, x.tok,
                                                     y.tok))
            self.R("if (%s) memcpy(%s, %s, sizeof %s); else memcpy(%s, %s, "
                   "sizeof %s);" % (f, m.ref, x.ref, m.ref, m.ref, y.ref,
                                    m.ref))
            m.copy_model(x)
            self.join_model(m, x, y)
            m.what = "%s %s ? v%d : v%d" % (kind, f, x.id, y.id)
        x.merged = y.merged = m.merged = True
        self.freeze(x, y)
        self.tags.add(kind)
        self.merge_tags(m, x, y)
        self.vals.append(m)
        self.opnames.append(kind)
        return m

    def merge_tags(self, m, *vals):
        if m.layout != list(range(m.rank)) or any(m.padding):
            self.tags.add("merge-layout")
        if m.nbytes > STACK_LIMIT:
            self.tags.add("merge-big")
        if m.dt == "bf16" and m.count > 256:
            self.tags.add("merge-wide-bf16")
        if any(v.escaped or v.will_escape for v in vals):
            self.tags.add("merge-escaped")
        if any(v.load is not None and v.load[0].nwrites != v.load_w
               for v in vals):
            self.tags.add("merge-load")

    def freeze(self, *vals):
        """merge-load off: arrays of merged loads are not written later."""
        if self.on("merge-load"):
            return
        for v in vals:
            if v.load is not None:
                v.load[0].frozen = True

    def join_model(self, m, x, y):
        if is_float(m.dt):
            m.mag = max(x.mag, y.mag)
            m.err = max(x.err, y.err)
            m.rel = max(x.rel, y.rel)
            m.q = None if x.q is None or y.q is None else max(x.q, y.q)
            m.pos = x.pos and y.pos
            m.nan = x.nan or y.nan

    def merge_loads_written(self, kind):
        """t = f ? ta : tb of two loads alike (the recognizer rebuilds one
        load of a phi of the pointers), ta's array written between the
        loads and the merge."""
        dt = self.dt_choice(TYPES)
        r = self.rng.randint(1, 3)
        logical = self.rshape(r)
        layout = self.rand_layout(r)
        padding = self.rand_padding(r)
        if not self.on("merge-layout"):
            layout, padding = list(range(r)), [0] * r
        blas = self.rand_blas([logical[l] for l in layout])
        off = self.rand_off()
        xa = self.new_input(dt, logical, form="load", layout=layout,
                            padding=padding, blas=blas, off=off)
        xb = self.new_input(dt, logical, form="load", layout=layout,
                            padding=padding, blas=blas, off=off)
        ops = self.keep_ops(xa)
        w = self.op_unary(self.rng.choice(ops), src=xa, layout=layout) \
            if ops else self.op_transpose("transpose", src=xa, perm=layout)
        self.store(w, xa.load[0], off, blas, why="store-over-input")
        self.tags.add("store-over-input")
        m = Val(self, dt, logical)
        if (m.nbytes > STACK_LIMIT and not self.on("merge-big")) or                 (dt == "bf16" and m.count > 256 and
                 not self.on("merge-wide-bf16")):
            return w
        m.layout, m.padding = list(layout), list(padding)
        m.tok = "t%d" % m.id
        self.rdecl(m)
        f = self.flag()
        self.use(xa)
        self.use(xb)
        if kind == "merge-if":
            self.T("int %s;" % m.tok)
            self.T("if (%s) %s = %s; else %s = %s;" % (f, m.tok, xa.tok,
                                                       m.tok, xb.tok))
        else:
            self.T("int %s = (%s) ? %s : %s;" % (m.tok, f, xa.tok, xb.tok))
        self.R("if (%s) memcpy(%s, %s, sizeof %s); else memcpy(%s, %s, "
               "sizeof %s);" % (f, m.ref, xa.ref, m.ref, m.ref, xb.ref,
                                m.ref))
        m.copy_model(xa)
        self.join_model(m, xa, xb)
        m.what = "%s %s ? v%d : v%d (loads, v%d's array written)" % (
            kind, f, xa.id, xb.id, xa.id)
        xa.merged = xb.merged = m.merged = True
        self.freeze(xa, xb)
        self.tags.add(kind)
        self.merge_tags(m, xa, xb)
        self.vals.append(m)
        self.opnames.append(kind)
        return m

    def merge_data(self, x):
        """vt d; if (f) d = dx; else d = dy; t = typeinfo(d)."""
        if x.data is None:
            # make x an op result with data
            x = self.twin(x)
            if x is None or x.data is None:
                return None
        y = self.twin(x)
        if y.data is None:
            y = self.op_transpose("transpose", src=x, perm=x.layout,
                                  padding=x.padding)
        if y is None or y.data is None or not self.mergeable(y):
            return None
        m = Val(self, x.dt, x.logical)
        m.layout, m.padding = list(x.layout), list(x.padding)
        m.tok = "t%d" % m.id
        vt = self.vt(x.dt, x.count)
        d = "d%d" % m.id
        f = self.flag()
        if self.chance(0.5):
            self.T("%s %s;" % (vt, d))
            self.T("if (%s) %s = %s; else %s = %s;" % (f, d, x.data, d,
                                                       y.data))
        else:
            self.T("%s %s = (%s) ? %s : %s;" % (vt, d, f, x.data, y.data))
        m.data = d
        self.rdecl(m)
        self.R("if (%s) memcpy(%s, %s, sizeof %s); else memcpy(%s, %s, "
               "sizeof %s);" % (f, m.ref, x.ref, m.ref, m.ref, y.ref, m.ref))
        self.use(x)
        self.use(y)
        m.copy_model(x)
        self.join_model(m, x, y)
        m.what = "merge-data %s ? v%d : v%d" % (f, x.id, y.id)
        if self.on("merge-read") and self.can_escape(m) and \
                self.chance(0.3):
            # Only C reads the merged vector: no typeinfo names it.
            x.merged = y.merged = m.merged = True
            self.freeze(x, y)
            self.escape(m, late_ok=False, force=True)
            self.tags.add("merge-read")
            return None
        self.T("int %s = tensor_typeinfo(%s, %s, %s, %s);" %
               (m.tok, d, ivec(m.shape), ivec(m.layout), ivec(m.padding)))
        x.merged = y.merged = m.merged = True
        self.freeze(x, y)
        self.tags.add("merge-data")
        self.merge_tags(m, x, y)
        self.vals.append(m)
        self.opnames.append("merge-data")
        return m

    def merge_loop(self, x):
        """t = tx; for (n) t = typeinfo(op(t))."""
        m = Val(self, x.dt, x.logical)
        m.layout, m.padding = list(x.layout), list(x.padding)
        m.tok = "t%d" % m.id
        self.rdecl(m)
        n = self.trip()
        op = self.rng.choice(self.keep_ops(x) + ["transpose"])
        self.use(x)
        self.T("int %s = %s;" % (m.tok, x.tok))
        self.R("memcpy(%s, %s, sizeof %s);" % (m.ref, x.ref, m.ref))
        self.T("for (int it = 0; it < %s; it++) {" % n)
        self.R("for (int it = 0; it < %s; it++) {" % n)
        self.ind += 1
        cur = Val(self, x.dt, x.logical)
        cur.layout, cur.padding = m.layout, m.padding
        cur.tok = m.tok
        cur.ref = m.ref
        cur.copy_model(x)
        if op == "transpose":
            self.op_transpose("transpose", src=cur, perm=x.layout,
                              into=m, top=False, padding=x.padding)
        else:
            self.op_unary(op, src=cur, into=m, top=False,
                          layout=x.layout, padding=x.padding)
        self.ind -= 1
        self.T("}")
        self.R("}")
        m.copy_model(x)
        m.pos = x.pos
        m.what = "loop %s x %s(v%d)" % (n, op, x.id)
        x.merged = m.merged = True
        self.freeze(x)
        self.tags.add("merge-loop")
        self.merge_tags(m, x)
        self.vals.append(m)
        self.opnames.append("merge-loop")
        return m

    def merge_loop_mma(self):
        """acc = tc; for (n) acc = typeinfo(smma(acc, a, b))."""
        op = self.rng.choice(list(MMA))
        x = self.pick(lambda v: v.dt == "i32" and 2 <= v.rank <= 3 and
                      self.mergeable(v),
                      lambda: self.new_input("i32", self.rshape(2),
                                             layout=None if self.on(
                                                 "merge-layout") else [0, 1],
                                             padding=None if self.on(
                                                 "merge-layout") else
                                             [0, 0]))
        if not self.mergeable(x):
            return None
        batch, mm, nn = x.logical[:-2], x.logical[-2], x.logical[-1]
        tin = self.rng.choice(["i8", "i32"])
        a = self.pick(lambda v: v.dt == tin and v.rank == x.rank and
                      v.logical[:-2] == batch and v.logical[-2] == mm,
                      lambda: self.new_input(tin, batch + [mm, self.dim()]))
        k = a.logical[-1]
        b = self.pick(lambda v: v.dt == tin and v.logical == batch + [k, nn],
                      lambda: self.new_input(tin, batch + [k, nn]))
        m = Val(self, "i32", x.logical)
        m.layout, m.padding = list(x.layout), list(x.padding)
        m.tok = "t%d" % m.id
        self.rdecl(m)
        n = self.trip()
        self.use(x)
        self.T("int %s = %s;" % (m.tok, x.tok))
        self.R("memcpy(%s, %s, sizeof %s);" % (m.ref, x.ref, m.ref))
        self.T("for (int it = 0; it < %s; it++) {" % n)
        self.R("for (int it = 0; it < %s; it++) {" % n)
        self.ind += 1
        cur = Val(self, "i32", x.logical)
        cur.layout, cur.padding, cur.tok, cur.ref = m.layout, m.padding, \
            m.tok, m.ref
        self.op_mma(op, acc=cur, a=a, b=b, into=m, top=False,
                    layout=x.layout, padding=x.padding)
        self.ind -= 1
        self.T("}")
        self.R("}")
        m.what = "loop %s x %s(acc v%d, v%d, v%d)" % (n, op, x.id, a.id,
                                                      b.id)
        x.merged = m.merged = True
        self.freeze(x)
        self.tags.add("merge-loop")
        self.merge_tags(m, x)
        self.vals.append(m)
        self.opnames.append("merge-loop-" + op)
        return m

    # -- in-place constructs ----------------------------------------------
    def construct_inplace(self):
        kinds = [k for k in ("inplace-mma", "store-over-input") if
                 self.on(k)]
        if not kinds:
            return None
        kind = self.rng.choice(kinds)
        if kind == "inplace-mma":
            return self.op_mma(self.rng.choice(list(MMA)), inplace=True)
        # store a value over an input array that an earlier load read
        loads = [v for v in self.vals if v.load is not None and
                 not v.load[0].frozen]
        if not loads:
            return None
        w = self.rng.choice(loads)
        arr, off, blas = w.load
        cands = [v for v in self.vals if v.dt == w.dt and v.shape == w.shape
                 and v is not w]
        if not cands:
            v = self.op_unary("relu", src=w, layout=w.layout) \
                if not (w.nan and is_float(w.dt)) else \
                self.op_transpose("transpose", src=w, perm=w.layout)
            if v is None:
                return None
        else:
            v = self.rng.choice(cands)
        self.store(v, arr, off, blas, why="store-over-input")
        self.tags.add("store-over-input")
        # The old token stays readable (its values are those loaded).
        w.uses = max(w.uses, 1)
        return v

    def construct_overlap(self):
        """tensor_store(A + off2, op(load(A + off1))), regions overlap."""
        dt = self.dt_choice(TYPES)
        r = self.rng.choice([1, 2, 2])
        logical = self.rshape(r)
        layout = self.rand_layout(r)
        shape = [logical[l] for l in layout]
        blas = self.rand_blas(shape)
        sp = span(shape, blas)
        if sp < 2:
            return None
        d = self.rng.randint(1, max(1, sp - 1))
        off1, off2 = (0, d) if self.chance(0.5) else (d, 0)
        v = Val(self, dt, logical)
        v.layout = layout
        v.padding = self.rand_padding(r)
        self.input_model(v)
        v.tok = "t%d" % v.id
        a = self.new_arr(dt, d + sp + 3, "in", self.fill_mode(dt))
        self.T("int %s = tensor_load(%s + %d, %s, %s, %s, %s);" %
               (v.tok, a.name, off1, ivec(shape), ivec(layout),
                ivec(v.padding), ivec(blas)))
        self.rdecl(v)
        self.ref_mem(v, a, off1, blas, True)
        v.load = (a, off1, blas)
        v.load_w = a.nwrites
        v.what = "load %s %s layout %s (overlap %+d)" % (dt, logical, layout,
                                                         off2 - off1)
        self.vals.append(v)
        src = v
        if self.chance(0.5):
            op = "relu" if not (is_float(dt) and v.nan) else "fabs"
            if is_float(dt) and self.chance(0.5):
                op = "fabs"
            src = self.op_unary(op, src=v, layout=layout)
        self.store(src, a, off2, blas, why="overlapping store")
        self.tags.add("overlap")
        return src

    # -- the program ------------------------------------------------------
    def build(self):
        rng = self.rng
        big = self.on("big") and self.chance(0.35)
        if big:
            self.pal = sorted(rng.sample(BIG_DIMS, 2))
            self.max_elems = 4096
            self.cap2 = 4900
            self.tags.add("big-sizes")
        else:
            self.pal = sorted(rng.sample(SMALL_DIMS, 3))
            self.max_elems = 512
            self.cap2 = 1024
        self.dts = rng.sample(self.drawable(TYPES), rng.choice([1, 1, 2]))
        self.post = []
        n_ops = rng.randint(2, self.max_ops)
        # a first input or two
        for _ in range(rng.randint(1, 2)):
            dt = self.dt_choice(TYPES)
            self.new_input(dt, self.rshape(2 if big else rng.randint(1, 3)))
        weights = [(op, WEIGHTS[op]) for op in self.ops]
        if any(self.on(f) for f in GROUPS["merges"]):
            weights.append(("@merge", CONSTRUCTS["merge"]))
        if self.on("inplace-mma") or self.on("store-over-input"):
            weights.append(("@inplace", CONSTRUCTS["inplace"]))
        if self.on("overlap"):
            weights.append(("@overlap", CONSTRUCTS["overlap"]))
        if self.on("reload"):
            weights.append(("@reload", CONSTRUCTS["reload"]))
        done = 0
        tries = 0
        while done < n_ops and tries < 200:
            tries += 1
            op = rng.choices([w[0] for w in weights],
                             [w[1] for w in weights])[0]
            nv = len(self.vals)
            if op == "@merge":
                r = self.construct_merge()
            elif op == "@inplace":
                r = self.construct_inplace()
            elif op == "@overlap":
                r = self.construct_overlap()
            elif op == "@reload":
                r = self.construct_reload()
            elif op in MMA:
                r = self.op_mma(op)
            elif op in UNARY:
                r = self.op_unary(op)
            elif op.startswith("reduce."):
                r = self.op_reduce(op)
            else:
                r = getattr(self, "op_" + op.replace(".", "_"))(op)
            if r is None:
                continue
            done += 1
            self.tick()
            # escapes and stores of fresh results
            for v in self.vals[nv:]:
                if v.data is not None and self.chance(0.4):
                    self.escape(v)
                if self.chance(0.15):
                    self.store(v)
        # (its own random stream: the other features' programs stay as
        # they were for every seed)
        bbv = random.Random("progs-bbv:%d:%d" % (self.seed, self.index))
        if self.on("big-byvalue") and bbv.random() < 0.1:
            self.construct_big_byvalue(bbv)
        cev = random.Random("progs-cev:%d:%d" % (self.seed, self.index))
        if self.on("conv-epilogue") and cev.random() < 0.15:
            self.construct_conv_epilogue(cev)
        rts = random.Random("progs-rts:%d:%d" % (self.seed, self.index))
        if self.on("runtime-sizes") and rts.random() < 0.2:
            self.construct_runtime_sizes(rts)
        if self.on("runtime-sizes") and rts.random() < 0.15:
            self.construct_runtime_unary(rts)
        if self.on("runtime-sizes") and rts.random() < 0.25:
            self.construct_runtime_fused(rts)
        # everything unobserved is stored (or escapes)
        for p in self.pending:
            p[1]()
        self.pending = []
        for v in self.vals:
            if v.observed or v.uses:
                continue
            if self.can_escape(v) and self.chance(0.3):
                self.escape(v, late_ok=False)
            else:
                self.store(v)
        if not any(a.written for a in self.arrs) and not self.checks:
            self.store(self.vals[-1])

    def construct_big_byvalue(self, rng):
        """A 4-16 MiB f32 tensor passed by value to a noinline function
        that returns relu of it by value; the result is checked against
        plain C. Its type and function exist only in the TLX half (plain
        clang cannot compile tensor-sized vectors by value)."""
        rows, cols = rng.choice([(1024, 1024), (2048, 1024),
                                      (2048, 2048)])
        n = rows * cols
        k = "%d_%d" % (self.index, self.nfn)
        self.nfn += 1
        vt = "tlxp_bbv_%s" % k
        fn = "tensor_relu_bbv_%s" % k
        h = "tlxp_bbh_%s" % k
        shape, layout = ivec([rows, cols]), ivec([0, 1])
        zeros = ivec([0, 0])
        self.fns.append("\n".join([
            "typedef float %s __attribute__((ext_vector_type(%d)));" %
            (vt, n),
            "%s %s(int);" % (vt, fn),
            "static TLXP_NOINLINE %s %s(%s p) {" % (vt, h, vt),
            "  int q = tensor_typeinfo(p, %s, %s, %s);" % (shape, layout,
                                                          zeros),
            "  %s r = %s(q);" % (vt, fn),
            "  int tr = tensor_typeinfo(r, %s, %s, %s);" % (shape, layout,
                                                           zeros),
            "  (void)tr;",
            "  return r;",
            "}"]))
        src, got, exp = "bbv%s_in" % k, "bbv%s_got" % k, "bbv%s_exp" % k
        for a in (src, got, exp):
            self.decls.append("static float %s[%d];" % (a, n))
        mul = rng.randrange(1, 1 << 20) * 2 + 1
        self.inits.append(
            "for (int i = 0; i < %d; i++) %s[i] = (float)((int)(((unsigned)i"
            " * %du) >> 20 & 31) - 15);" % (n, src, mul))
        self.R("for (int i = 0; i < %d; i++) /* big-byvalue relu */" % n)
        self.R("  %s[i] = %s[i] > 0 ? %s[i] : 0;" % (exp, src, src))
        self.T("{ /* big-byvalue: %dx%d f32 by value */" % (rows, cols))
        self.T("  %s v;" % vt)
        self.T("  memcpy(&v, %s, sizeof v);" % src)
        self.T("  %s r = %s(v);" % (vt, h))
        self.T("  memcpy(%s, &r, sizeof r);" % got)
        self.T("}")
        self.checks.append(("big-byvalue relu %dx%d" % (rows, cols), got, exp,
                            "f32", n, 0.0, 0.0))
        self.tags.add("big-byvalue")

    def construct_conv_epilogue(self, rng):
        """relu(convolution + a per-channel bias) stored: the bias loaded as
        [O, 1..] and broadcast to the convolution's shape and layout, added
        by the C operator, relu over the sum - the chain tlx-nd-to-2d fuses
        into the convolution's rows (docs/pipeline.md, "Convolutions'
        epilogues"). Drawn from its own random stream, rng."""
        saved, self.rng = self.rng, rng
        try:
            c = self.op_convolution("convolution")
            if c is None or c.dt not in ("f32", "i32") or not c.data or \
                    not self.fine(c) or c.nan:
                return None
            bias = self.new_input(c.dt, [c.logical[1]] + [1] * (c.rank - 2))
            b = Val(self, c.dt, c.logical)
            b.copy_model(bias)
            b.what = "broadcast %s %s -> %s" % (c.dt, bias.logical, c.logical)

            def ref():
                idx = ["i%d" % i for i in range(c.rank)]
                self.loop_open(c.logical, idx)
                src = [idx[1]] + ["0"] * (c.rank - 2)
                self.R("%s = %s;" % (self.at(b, idx), self.at(bias, src)))
                self.loop_close(c.rank)
            b = self.compute("broadcast", b, [bias], [], ref, layout=c.layout,
                             padding=c.padding, allow_helper=False)
            z = self.op_cop("cop", a=c, b=b, opr="+")
            y = z and self.op_unary("relu", src=z)
            if y is None:
                return None
            self.store(y)
            self.tags.add("conv-epilogue")
            return y
        finally:
            self.rng = saved

    def construct_runtime_sizes(self, rng):
        """A matmul or mma whose sizes and leading dimensions are C
        variables (volatiles: nothing folds), in a noinline function of the
        TLX half; every element of the destination (the gaps between its
        rows too) is checked against plain C."""
        op = rng.choice(["matmul", "matmul", "matmul_i32", "smma", "umma",
                         "usmma", "summa"])
        pick = lambda: rng.choice([rng.randint(1, 20), rng.randint(1, 70),
                                   rng.randint(0, 3)])
        m, n, kk = pick(), pick(), pick()
        # (usmma and smma on vpdpbusd read A's 4-byte k groups in place -
        # smma flipping their sign bits in the register - when the
        # run-time K is a multiple of 4 and N is narrow: K of every residue
        # is drawn here.)
        if rng.random() < 0.1:
            # wider than four micro-panels: the FMA kernel reads A in place
            # only as one A block of rows starting on cache lines (lda a
            # multiple of 16 below)
            n, kk = rng.randint(129, 300), 16 * rng.randint(1, 12)
        elif rng.random() < 0.15:
            kk = rng.randint(600, 700)  # across the KC block
            if rng.random() < 0.4:
                # more rows than one A block takes (the packed B panel
                # whole, not a group of micro-panels at a time)
                m = rng.randint(500, 800)
        col_a = rng.random() < 0.3
        lda = (m if col_a else kk) + rng.choice([0, 0, 1, 5])
        ldb = n + rng.choice([0, 0, 3])
        ldc = n + rng.choice([0, 0, 2])
        inplace = op not in ("matmul", "matmul_i32") and rng.random() < 0.5
        ta, tb = {"matmul": ("float", "float"),
                  "matmul_i32": ("int32_t", "int32_t"),
                  "smma": ("int8_t", "int8_t"), "umma": ("uint8_t", "uint8_t"),
                  "usmma": ("uint8_t", "int8_t"),
                  "summa": ("int8_t", "uint8_t")}[op]
        tc = "float" if op == "matmul" else "int32_t"
        # a batch of nbat matrices (a leading dim, packed between matrices)
        nbat = rng.randint(0, 3) if rng.random() < 0.25 else None
        dt = "f32" if op == "matmul" else "i32"
        k = "%d_%d" % (self.index, self.nfn)
        self.nfn += 1
        fn, pre = "tlxp_rts_%s" % k, "rts%s_" % k
        per_a = (kk * lda) if col_a else (m * lda)
        per_b, per_c = kk * ldb, m * ldc
        bats = 1 if nbat is None else nbat
        na = max(1, bats * per_a)
        nb, nc = max(1, bats * per_b), max(1, bats * per_c)
        # M and N constants, K run-time: a result of constant extents
        # computed by the run-time GEMM
        # (constant extents are >= 1)
        M, N = ((str(m), str(n)) if m and n and rng.random() < 0.2 else
                ("m", "n"))
        if nbat is None:
            a_shape = ("TLX_SHAPE(k, %s), TLX_LAYOUT(1, 0)" % M if col_a else
                       "TLX_SHAPE(%s, k), TLX_LAYOUT(0, 1)" % M)
            shape2 = lambda r, c: "TLX_SHAPE(%s, %s), TLX_LAYOUT(0, 1)" % (r, c)
            lds = lambda ld: "TLX_ZEROS(2), TLX_STRIDES(0, %s)" % ld
        else:
            a_shape = ("TLX_SHAPE(nb, k, %s), TLX_LAYOUT(0, 2, 1)" % M
                       if col_a else
                       "TLX_SHAPE(nb, %s, k), TLX_LAYOUT(0, 1, 2)" % M)
            shape2 = lambda r, c: ("TLX_SHAPE(nb, %s, %s), "
                                   "TLX_LAYOUT(0, 1, 2)" % (r, c))
            lds = lambda ld: "TLX_ZEROS(3), TLX_STRIDES(0, 0, %s)" % ld
        load = lambda p, shape, ld: "tensor_load(%s, %s, %s)" % (p, shape,
                                                                 lds(ld))
        ops = [load("a", a_shape, "lda"), load("b", shape2("k", N), "ldb")]
        params = ("int nb, int m, int n, int k, int lda, int ldb, int ldc, "
                  "const %s *a, const %s *b, const int32_t *acc, %s *c" %
                  (ta, tb, tc))
        if op.startswith("matmul"):
            call = "tlx_matmul(%s, %s)" % tuple(ops)
        else:
            acc = load("c" if inplace else "acc", shape2(M, N),
                       "ldc" if inplace else "0")
            call = "tlx_%s(%s, %s, %s)" % (op, acc, ops[0], ops[1])
        relu = rng.random() < 0.3  # fused into the GEMM's write-back
        if relu:
            call = "tlx_relu(%s)" % call
        self.fns.append("\n".join([
            "static TLXP_NOINLINE void %s(%s) {" % (fn, params),
            "  (void)acc, (void)nb;",
            "  tensor_store(c, %s, %s);" % (call, lds("ldc").split(", ", 1)[1]),
            "}"]))
        d = pre + "dims"
        self.decls.append("static %s %sa[%d];" % (ta, pre, na))
        self.decls.append("static %s %sb[%d];" % (tb, pre, nb))
        self.decls.append("static int32_t %sacc[%d];" %
                          (pre, max(1, bats * m * n)))
        for a in ("got", "exp"):
            self.decls.append("static %s %s%s[%d];" % (tc, pre, a, nc))
        self.decls.append("volatile int %s[7] = {%d, %d, %d, %d, %d, %d, %d};"
                          % (d, bats, m, n, kk, lda, ldb, ldc))
        mul = rng.randrange(1, 1 << 16) * 2 + 1
        fill = "(int)((((unsigned)i * %du) >> 7) %% 15) - 7" % mul
        self.inits.append("for (int i = 0; i < %d; i++) %sa[i] = (%s)(%s);" %
                          (na, pre, ta, fill))
        self.inits.append("for (int i = 0; i < %d; i++) %sb[i] = (%s)(%s);" %
                          (nb, pre, tb, fill.replace("7)", "11)")))
        self.inits.append("for (int i = 0; i < %d; i++) %sacc[i] = i %% 23 "
                          "- 11;" % (max(1, bats * m * n), pre))
        self.inits.append("for (int i = 0; i < %d; i++) %sgot[i] = %sexp[i] "
                          "= (%s)(i %% 9 - 4);" % (nc, pre, pre, tc))
        aidx = ("z * %d + " % per_a) + ("p * lda + i" if col_a else
                                         "i * lda + p")
        cidx = "z * %d + i * ldc + j" % per_c
        acc0 = ("0" if op.startswith("matmul") else
                "%sexp[%s]" % (pre, cidx) if inplace else
                "%sacc[z * %d + i * n + j]" % (pre, m * n))
        sumt = "double" if op == "matmul" else "int32_t"
        self.R("{ /* runtime-sizes %s %dx%dx%d */" % (op, m, n, kk))
        self.R("  int nb = %s[0], m = %s[1], n = %s[2], k = %s[3], "
               "lda = %s[4], ldb = %s[5], ldc = %s[6];" % ((d,) * 7))
        self.R("  (void)ldb;")
        self.R("  for (int z = 0; z < nb; z++)")
        self.R("  for (int i = 0; i < m; i++)")
        self.R("    for (int j = 0; j < n; j++) {")
        self.R("      %s s = %s;" % (sumt, acc0))
        self.R("      for (int p = 0; p < k; p++)")
        self.R("        s += (%s)%sa[%s] * (%s)%sb[z * %d + p * ldb + j];" %
               (sumt, pre, aidx, sumt, pre, per_b))
        if relu:
            self.R("      s = s > 0 ? s : 0;")
        self.R("      %sexp[%s] = (%s)s;" % (pre, cidx, tc))
        self.R("    }")
        self.R("}")
        self.T("%s(%s[0], %s[1], %s[2], %s[3], %s[4], %s[5], %s[6], %sa, "
               "%sb, %sacc, %sgot);" % ((fn,) + (d,) * 7 + (pre,) * 4))
        self.checks.append(("runtime-sizes %s %s%dx%dx%d%s%s%s" % (
            op, "" if nbat is None else "%d x " % nbat, m, n, kk,
            " col-major op1" if col_a else "",
            " in place" if inplace else "", " + relu" if relu else ""),
            pre + "got", pre + "exp", dt, nc, 0.0, 0.0))
        self.tags.add("runtime-sizes")

    def construct_runtime_unary(self, rng):
        """A copy, or relu/fabs/floor applied in turn, of a 1-3-D tensor in
        memory whose extents and leading dimensions are C variables, any
        layout, stored row-major with its own leading dimensions: every
        element of the destination checked against plain C (exact)."""
        rank = rng.choice([1, 2, 2, 3])
        ext = [rng.choice([rng.randint(1, 9), rng.randint(1, 40),
                           rng.randint(0, 2)]) for _ in range(rank)]
        layout = list(range(rank))
        if rank > 1 and rng.random() < 0.4:
            rng.shuffle(layout)
        ctype, dt = rng.choice([("float", "f32"), ("int32_t", "i32")])
        ops = ["relu", "fabs", "floor"] if ctype == "float" else ["relu"]
        chain = [rng.choice(ops) for _ in range(rng.choice([0, 1, 1, 2]))]
        # source: storage dims (extents of the logical dims layout[i]),
        # leading dims padded; destination row-major, padded too
        sext = [ext[l] for l in layout]
        # a copy is stored in its source's layout, an op's result (the
        # short form's) row-major
        dlayout = list(range(rank)) if chain else layout
        dext = [ext[l] for l in dlayout]
        sld, dld = padded_lds(rng, sext), padded_lds(rng, dext)
        k = "%d_%d" % (self.index, self.nfn)
        self.nfn += 1
        fn, pre = "tlxp_rtu_%s" % k, "rtu%s_" % k
        sstr, dstr = strides_of(sext, sld), strides_of(dext, dld)
        ns = max(1, reach(sext, sstr))
        nd = max(1, reach(dext, dstr))
        names = ["e%d" % i for i in range(rank)]
        params = ", ".join(["int %s" % n for n in names] +
                           ["int sl%d" % i for i in range(rank)] +
                           ["int dl%d" % i for i in range(rank)] +
                           ["const %s *a" % ctype, "%s *c" % ctype])
        dims = lambda xs: "TLX_DIMS(%s)" % ", ".join(xs)
        tok = ("tensor_load(a, %s, %s, TLX_ZEROS(%d), %s)" % (
            dims([names[l] for l in layout]), dims([str(l) for l in layout]),
            rank, dims(["sl%d" % i for i in range(rank)])))
        for c in chain:
            tok = "tlx_%s(%s)" % (c, tok)
        self.fns.append("\n".join([
            "static TLXP_NOINLINE void %s(%s) {" % (fn, params),
            "  tensor_store(c, %s, %s);" % (tok, dims(["dl%d" % i for i in
                                                      range(rank)])),
            "}"]))
        d = pre + "dims"
        vals = ext + sld + dld
        self.decls.append("static %s %sa[%d];" % (ctype, pre, ns))
        for a in ("got", "exp"):
            self.decls.append("static %s %s%s[%d];" % (ctype, pre, a, nd))
        self.decls.append("volatile int %s[%d] = {%s};" % (
            d, len(vals), ", ".join(str(v) for v in vals)))
        self.inits.append("for (int i = 0; i < %d; i++) %sa[i] = (%s)((int)"
                          "(((unsigned)i * 2654435761u) >> 27) - 16) / 4;" %
                          (ns, pre, ctype))
        self.inits.append("for (int i = 0; i < %d; i++) %sgot[i] = %sexp[i] "
                          "= (%s)7;" % (nd, pre, pre, ctype))
        # reference: loop over logical indices
        self.R("{ /* runtime-sizes %s of %s (layout %s) */" % (
            " ".join(chain) or "copy", "x".join(map(str, ext)), layout))
        for i in range(rank):
            self.R("  " * (i + 1) + "for (int i%d = 0; i%d < %d; i%d++)" %
                   (i, i, ext[i], i))
        soff = " + ".join("i%d * %d" % (layout[i], sstr[i])
                          for i in range(rank))
        doff = " + ".join("i%d * %d" % (dlayout[i], dstr[i])
                          for i in range(rank))
        ind = "  " * (rank + 1)
        self.R(ind + "{ %s v = %sa[%s];" % (ctype, pre, soff))
        for c in chain:
            expr = {"relu": "v > 0 ? v : 0", "fabs": "fabsf(v)",
                    "floor": "floorf(v)"}[c]
            self.R(ind + "  v = %s;" % expr)
        self.R(ind + "  %sexp[%s] = v; }" % (pre, doff))
        self.R("}")
        self.T("%s(%s, %sa, %sgot);" % (fn, ", ".join(
            "%s[%d]" % (d, i) for i in range(len(vals))), pre, pre))
        self.checks.append(("runtime-sizes %s %s" % (
            " ".join(chain) or "copy", "x".join(map(str, ext))),
            pre + "got", pre + "exp", dt, nd, 0.0, 0.0))
        self.tags.add("runtime-sizes")

    def construct_runtime_fused(self, rng):
        """A tree of transpose, pad, concat, broadcast (fill form),
        reshape.block, reshape.permute, reduce.*, unary ops, C operators
        (+ - * & | ^, on long-form results named by typeinfos, or with a
        scalar), contract (1-2 axes anywhere), 1-D convolutions and GEMMs
        of computed operands (results read twice and stored in another block too) over
        1-3-D tensors in memory whose extents, pad amounts, windows and
        strides are C variables (volatiles), any leaf layout, stored
        row-major: every element checked against plain C loops computing
        each op in turn into an array of its own (exact: the reduce windows
        fold in order in both)."""
        ctype, dt = rng.choice([("float", "f32"), ("int32_t", "i32")])
        k = "%d_%d" % (self.index, self.nfn)
        self.nfn += 1
        fn, pre = "tlxp_rtf_%s" % k, "rtf%s_" % k
        ints, leaves, ref, kinds, pre_stmts = [], [], [], [], []
        ntmp = [0]

        def var(v):
            ints.append(v)
            return "v%d" % (len(ints) - 1)

        def dims(xs):
            return "TLX_DIMS(%s)" % ", ".join(xs)

        def tmp(shape):
            ntmp[0] += 1
            name = "%st%d" % (pre, ntmp[0])
            self.decls.append("static %s %s[%d];" % (
                ctype, name, max(1, prod(shape))))
            return name

        def loops(shape, body):
            """C loops over the row-major indices i0.. of shape."""
            r = len(shape)
            ref.append("  {")
            for d in range(r):
                ref.append("  " * (d + 2) + "for (int i%d = 0; i%d < %d; "
                           "i%d++)" % (d, d, shape[d], d))
            ref.append("  " * (r + 2) + body)
            ref.append("  }")

        def lin(shape, idx):
            """Row-major offset of index expressions idx in shape."""
            e = "0"
            for d, x in enumerate(idx):
                e = "(%s) * %d + (%s)" % (e, shape[d], x)
            return e

        def node(shape, depth):
            """(TLX expression, name of its reference array) of a tensor
            of logical extents shape."""
            r = len(shape)
            ops = ["leaf"] * 2 if depth >= 3 else [
                "leaf", "unary", "transpose", "pad", "concat", "fill",
                "reduce", "reduce", "twice", "gemm", "cop", "cop",
                "contract"]
            if r < 2:
                ops = [o for o in ops if o not in ("transpose", "gemm")]
            if r != 2 or prod(shape) > 400:
                ops = [o for o in ops if o != "gemm"]
            if prod(shape) > 400:
                ops = [o for o in ops if o != "contract"]
            if shape[-1] % 2:
                ops = [o for o in ops if o != "twice"]
            if depth < 3 and r >= 2 and shape[-1] in (2, 3, 4):
                ops.append("block")
            if depth < 3 and prod(shape) <= 400:
                ops.append("permute")
            if r == 3 and shape[2] >= 1 and prod(shape) <= 300:
                ops.append("conv")  # (an input at least a window wide)
            if 0 in shape or prod(shape) > 400:
                ops = [o for o in ops if o != "reduce"]
            op = rng.choice(ops)
            out = tmp(shape)
            idx = ["i%d" % d for d in range(r)]
            if op == "leaf":
                layout = list(range(r))
                if r > 1 and rng.random() < 0.4:
                    rng.shuffle(layout)
                sext = [shape[l] for l in layout]
                name = "%sa%d" % (pre, len(leaves))
                leaves.append((name, prod(shape)))
                st = strides_of(sext, [0] * r)
                off = " + ".join("i%d * %d" % (layout[d], st[d])
                                 for d in range(r))
                loops(shape, "%s[%s] = %s[%s];" % (out, lin(shape, idx),
                                                   name, off))
                return ("tensor_load(%s, %s, %s, TLX_ZEROS(%d), TLX_ZEROS(%d))"
                        % (name, dims([var(e) for e in sext]),
                           dims([str(l) for l in layout]), r, r), out)
            kinds.append(op)
            if op == "unary":
                u = rng.choice(["relu", "fabs", "floor"] if ctype == "float"
                               else ["relu"])
                x, xr = node(shape, depth + 1)
                expr = {"relu": "v > 0 ? v : 0", "fabs": "fabsf(v)",
                        "floor": "floorf(v)"}[u]
                loops(shape, "{ %s v = %s[%s]; %s[%s] = %s; }" % (
                    ctype, xr, lin(shape, idx), out, lin(shape, idx), expr))
                return "tlx_%s(%s)" % (u, x), out
            if op == "transpose":
                ins = shape[:-2] + [shape[-1], shape[-2]]
                x, xr = node(ins, depth + 1)
                iidx = idx[:-2] + [idx[-1], idx[-2]]
                loops(shape, "%s[%s] = %s[%s];" % (
                    out, lin(shape, idx), xr, lin(ins, iidx)))
                return "tlx_transpose(%s)" % x, out
            if op == "pad":
                lo = [rng.randint(0, min(2, e)) for e in shape]
                hi = [rng.randint(0, min(2, e - l)) for e, l in zip(shape, lo)]
                ins = [e - l - h for e, l, h in zip(shape, lo, hi)]
                x, xr = node(ins, depth + 1)
                fill = rng.randint(-3, 3)
                amount = (lambda v: var(v)) if rng.random() < 0.5 else str
                inside = "0" if 0 in ins else " && ".join(
                    "i%d >= %d && i%d < %d" % (d, lo[d], d, lo[d] + ins[d])
                    for d in range(r))
                iidx = ["i%d - %d" % (d, lo[d]) for d in range(r)]
                loops(shape, "%s[%s] = (%s) ? %s[%s] : (%s)%d;" % (
                    out, lin(shape, idx), inside, xr, lin(ins, iidx), ctype,
                    fill))
                return ("tlx_pad(%s, %s, %s, (%s)%d)" % (
                    x, dims([amount(v) for v in lo]),
                    dims([amount(v) for v in hi]), ctype, fill), out)
            if op == "concat":
                axis = rng.randrange(r)
                e1 = rng.randint(0, shape[axis])
                s1 = list(shape)
                s1[axis] = e1
                s2 = list(shape)
                s2[axis] = shape[axis] - e1
                x, xr = node(s1, depth + 1)
                y, yr = node(s2, depth + 1)
                i2 = list(idx)
                i2[axis] = "i%d - %d" % (axis, e1)
                loops(shape, "%s[%s] = i%d < %d ? %s[%s] : %s[%s];" % (
                    out, lin(shape, idx), axis, e1, xr, lin(s1, idx), yr,
                    lin(s2, i2)))
                return "tlx_concat(%s, %s, %d)" % (x, y, axis), out
            if op == "twice":
                # one result read by two ops: TLX buffers it
                half = shape[:-1] + [shape[-1] // 2]
                x, xr = node(half, depth + 1)
                ntmp[0] += 1
                tk = "%stk%d" % (pre, ntmp[0])
                pre_stmts.append("  tlx_token_t %s = %s;" % (tk, x))
                i2 = idx[:-1] + ["i%d - %d" % (r - 1, half[-1])]
                loops(shape, "{ %s v = i%d < %d ? %s[%s] : %s[%s]; %s[%s] = "
                      "i%d < %d || v > 0 ? v : 0; }" % (
                          ctype, r - 1, half[-1], xr, lin(half, idx), xr,
                          lin(half, i2), out, lin(shape, idx), r - 1,
                          half[-1]))
                return ("tlx_concat(%s, tlx_relu(%s), %d)" % (tk, tk, r - 1),
                        out)
            if op == "gemm":
                # a^T x (x computed by ops: TLX buffers it for the GEMM)
                kk = rng.randint(0, 9)
                x, xr = node([kk, shape[1]], depth + 1)
                name = "%sa%d" % (pre, len(leaves))
                leaves.append((name, kk * shape[0]))
                loops(shape, "{ %s acc = 0; for (int p = 0; p < %d; p++) "
                      "acc %s; %s[%s] = acc; }" % (
                          ctype, kk,
                          ("+= %s[p * %d + i0] * %s[p * %d + i1]" % (
                              name, shape[0], xr, shape[1]))
                          if ctype == "float" else
                          ("= (int32_t)((uint32_t)acc + (uint32_t)%s[p * %d + "
                           "i0] * (uint32_t)%s[p * %d + i1])" % (
                               name, shape[0], xr, shape[1])),
                          out, lin(shape, idx)))
                return ("tlx_matmul(tlx_transpose(tensor_load(%s, %s, "
                        "TLX_DIMS(0, 1), TLX_ZEROS(2), TLX_ZEROS(2))), %s)" % (
                            name, dims([var(kk), var(shape[0])]), x), out)
            if op == "contract":
                # tensordot: out = [free of x.., free of y..]; each operand
                # gets 1-2 contracted axes at random positions
                nfa = rng.randint(0, r)
                csz = [rng.randint(0, 5) for _ in range(rng.randint(1, 2))]

                def operand(free):
                    axes = list(range(len(free) + len(csz)))
                    rng.shuffle(axes)
                    cpos = sorted(axes[:len(csz)])
                    shp, fi, ci = [], 0, 0
                    for d in range(len(free) + len(csz)):
                        if d in cpos:
                            shp.append(csz[ci])
                            ci += 1
                        else:
                            shp.append(free[fi])
                            fi += 1
                    return shp, cpos
                xs, xax = operand(shape[:nfa])
                ys, yax = operand(shape[nfa:])
                # contracted axis i of x pairs with a shuffled one of y
                pair = list(range(len(csz)))
                rng.shuffle(pair)
                yax = [yax[pair.index(i)] for i in range(len(csz))]
                ysh = list(ys)
                for i in range(len(csz)):
                    ysh[yax[i]] = csz[i]
                x, xr = node(xs, depth + 1)
                name = "%sa%d" % (pre, len(leaves))
                leaves.append((name, prod(ysh)))
                # reference: loops over the contracted indices c0..

                def indices(rank, ax, first):
                    out, f = [], first  # free dims: result indices from first
                    for d in range(rank):
                        if d in ax:
                            out.append("c%d" % ax.index(d))
                        else:
                            out.append("i%d" % f)
                            f += 1
                    return out
                xi = indices(len(xs), xax, 0)
                yi = indices(len(ysh), yax, nfa)
                cl = "".join("for (int c%d = 0; c%d < %d; c%d++) " % (
                    i, i, e, i) for i, e in enumerate(csz))
                prodx = "%s[%s] * %s[%s]" % (xr, lin(xs, xi), name,
                                             lin(ysh, yi))
                loops(shape, "{ %s acc = 0; %sacc %s; %s[%s] = acc; }" % (
                    ctype, cl, ("+= %s" % prodx) if ctype == "float" else
                    "= (int32_t)((uint32_t)acc + (uint32_t)%s[%s] * "
                    "(uint32_t)%s[%s])" % (xr, lin(xs, xi), name,
                                           lin(ysh, yi)),
                    out, lin(shape, idx)))
                return ("tlx_contract(%s, tensor_load(%s, %s, "
                        "TLX_IDENTITY_LAYOUT(%d), TLX_ZEROS(%d), "
                        "TLX_ZEROS(%d)), %s, %s)" % (
                            x, name, dims([var(e) for e in ysh]), len(ysh),
                            len(ysh), len(ysh), dims([str(a) for a in xax]),
                            dims([str(a) for a in yax])), out)
            if op == "conv":
                # a 1-D convolution: [n, c, w] * [o, c, kw] (kernel
                # dilation kd, stride st) -> [n, o, (w - (kw - 1) * kd - 1)
                # / st + 1]; a stride above 1 leaves up to st - 1 input
                # positions unread at the end
                kw, kd, c = rng.randint(1, 3), rng.choice([1, 1, 2]), \
                    rng.randint(0, 4)
                st = rng.choice([1, 1, 2, 3]) if shape[2] >= 1 else 1
                ins = [shape[0], c, (shape[2] - 1) * st + (kw - 1) * kd + 1 +
                       rng.randint(0, st - 1) if st > 1 else
                       shape[2] + (kw - 1) * kd]
                x, xr = node(ins, depth + 1)
                name = "%sa%d" % (pre, len(leaves))
                leaves.append((name, shape[1] * c * kw))
                loops(shape, "{ %s acc = 0; for (int c = 0; c < %d; c++) "
                      "for (int j = 0; j < %d; j++) acc %s; %s[%s] = acc; }" % (
                          ctype, c, kw,
                          ("+= %s[(i1 * %d + c) * %d + j] * %s[%s]" % (
                              name, c, kw, xr,
                              lin(ins, ["i0", "c", "i2 * %d + j * %d" %
                                        (st, kd)])))
                          if ctype == "float" else
                          ("= (int32_t)((uint32_t)acc + (uint32_t)%s[(i1 * "
                           "%d + c) * %d + j] * (uint32_t)%s[%s])" % (
                               name, c, kw, xr,
                               lin(ins, ["i0", "c", "i2 * %d + j * %d" %
                                         (st, kd)]))),
                          out, lin(shape, idx)))
                return ("tlx_convolution(%s, tensor_load(%s, %s, "
                        "TLX_IDENTITY_LAYOUT(3), TLX_ZEROS(3), TLX_ZEROS(3)), "
                        "TLX_DIMS(%d), TLX_DIMS(1), TLX_DIMS(%d))" % (
                            x, name, dims([var(shape[1]), var(c), str(kw)]),
                            st, kd), out)
            if op == "permute":
                # reshape.permute: the same row-major elements in another
                # shape (1-D, reversed, or the last two dims merged)
                cands = [[prod(shape)], list(reversed(shape))]
                if r >= 2:
                    cands.append(shape[:-2] + [shape[-2] * shape[-1]])
                ins = rng.choice(cands)
                x, xr = node(ins, depth + 1)
                loops(shape, "%s[%s] = %s[%s];" % (
                    out, lin(shape, idx), xr, lin(shape, idx)))
                return ("tensor_typeinfo(tensor_reshape_permute_%s(%s), "
                        "%s, TLX_IDENTITY_LAYOUT(%d), TLX_ZEROS(%d))" % (
                            "rtf32" if ctype == "float" else "rti32", x,
                            dims([var(e) for e in shape]), r, r), out)
            if op == "block":
                # reshape.block: in dim j = out dim j x the block, the block
                # the innermost dim of out
                b = shape[-1]
                j = rng.randrange(r - 1)
                ins = list(shape[:-1])
                ins[j] *= b
                x, xr = node(ins, depth + 1)
                ins_vars = [var(v) for v in ins]  # the program's sizes
                iidx = idx[:-1]
                iidx[j] = "i%d * %d + i%d" % (j, b, r - 1)
                loops(shape, "%s[%s] = %s[%s];" % (out, lin(shape, idx), xr,
                                                   lin(ins, iidx)))
                blocks = [1] * (r - 1)
                blocks[j] = b
                # the long form: the result's typeinfo names its shape
                odims = [str(v) for v in shape]
                for d in range(r - 1):
                    if d == j:
                        odims[d] = "%s / %d" % (ins_vars[d], b)
                    else:
                        odims[d] = ins_vars[d]
                return ("tensor_typeinfo(tensor_reshape_block_%s(%s, %s), "
                        "%s, TLX_IDENTITY_LAYOUT(%d), TLX_ZEROS(%d))" % (
                            "rtf32" if ctype == "float" else "rti32", x,
                            dims([str(v) for v in blocks]), dims(odims), r,
                            r), out)
            if op == "cop":
                # C operators on long-form results named by typeinfos of
                # the program's sizes: x' OP y', or x' OP a scalar
                sfx, vt = (("rtf32", "tlx_float_result_t")
                           if ctype == "float" else
                           ("rti32", "tlx_int32_result_t"))
                names = []
                for _ in range(2):
                    x, xr = node(shape, depth + 1)
                    u = rng.choice(["relu", "fabs"] if ctype == "float"
                                   else ["relu"])
                    ntmp[0] += 1
                    v = "%sv%d" % (pre, ntmp[0])
                    pre_stmts.append("  %s %s = tensor_%s_%s(%s);" % (
                        vt, v, u, sfx, x))
                    pre_stmts.append(
                        "  tensor_typeinfo(%s, %s, TLX_IDENTITY_LAYOUT(%d), "
                        "TLX_ZEROS(%d));" % (v, dims([var(e) for e in shape]),
                                             r, r))
                    names.append((v, xr, {"relu": "v > 0 ? v : 0",
                                          "fabs": "fabsf(v)"}[u]))
                cops = ["+", "-", "*"] + (["&", "|", "^"]
                                          if ctype != "float" else [])
                cop = rng.choice(cops)
                scalar = rng.random() < 0.3
                k = rng.randint(-3, 3)
                (a, ar, ae), (b, br, be) = names
                ntmp[0] += 1
                z = "%sz%d" % (pre, ntmp[0])
                rhs = ("(%s)%s" % (ctype, var(k))) if scalar else b
                pre_stmts.append("  %s %s = %s %s %s;" % (vt, z, a, cop, rhs))
                wrap = cop in "+-*" and ctype != "float"
                rb = "(%s)%d" % (ctype, k) if scalar else "vb"
                combine = ("(%s)((uint32_t)va %s (uint32_t)%s)" % (
                    ctype, cop, rb) if wrap else "va %s %s" % (cop, rb))
                loops(shape, "{ %s v = %s[%s]; %s va = %s; v = %s[%s]; "
                      "%s vb = %s; (void)vb; %s[%s] = %s; }" % (
                          ctype, ar, lin(shape, idx), ctype, ae, br,
                          lin(shape, idx), ctype, be, out, lin(shape, idx),
                          combine))
                return ("tensor_typeinfo(%s, %s, TLX_IDENTITY_LAYOUT(%d), "
                        "TLX_ZEROS(%d))" % (z, dims([var(e) for e in shape]),
                                            r, r), out)
            if op == "fill":
                x, _ = node(shape, depth + 1)
                v = rng.randint(-5, 5)
                loops(shape, "%s[%s] = (%s)%d;" % (out, lin(shape, idx),
                                                    ctype, v))
                return "tlx_broadcast(%s, (%s)%d)" % (x, ctype, v), out
            # reduce: in = (out - 1) * stride + window + (0 .. stride - 1)
            red = rng.choice(["max", "min", "add", "mul"] +
                             (["and", "or", "xor"] if ctype != "float"
                              else []))
            win = [rng.choice([1, 1, 2, 3]) for _ in range(r)]
            if rng.random() < 0.3:  # a whole axis
                win[rng.randrange(r)] = rng.randint(1, 9)
            strd = [rng.choice([1, 1, 2]) for _ in range(r)]
            ins = [(e - 1) * s + w + rng.randint(0, s - 1)
                   for e, w, s in zip(shape, win, strd)]
            x, xr = node(ins, depth + 1)
            param = (lambda v: var(v)) if rng.random() < 0.5 else str
            # the reference folds the window in row-major order
            widx = ["i%d * %d + w%d" % (d, strd[d], d) for d in range(r)]
            acc = ("(%s)((uint32_t)acc %s (uint32_t)x)" % (ctype, {
                "add": "+", "mul": "*", "and": "&", "or": "|",
                "xor": "^"}[red]) if ctype != "float" and red not in (
                    "max", "min") else {
                "max": "x > acc ? x : acc", "min": "x < acc ? x : acc",
                "add": "acc + x", "mul": "acc * x"}[red])
            wl = "".join("for (int w%d = 0; w%d < %d; w%d++) " % (d, d, win[d],
                                                                 d)
                         for d in range(r))
            first = " && ".join("w%d == 0" % d for d in range(r))
            loops(shape, "{ %s acc = 0; %s{ %s x = %s[%s]; acc = (%s) ? x : "
                  "%s; } %s[%s] = acc; }" % (
                      ctype, wl, ctype, xr, lin(ins, widx), first, acc, out,
                      lin(shape, idx)))
            return ("tlx_reduce_%s(%s, %s, %s)" % (
                red, x, dims([param(v) for v in win]),
                dims([param(v) for v in strd])), out)

        rank = rng.choice([1, 2, 2, 3])
        shape = [rng.choice([rng.randint(1, 6), rng.randint(1, 17),
                             rng.randint(0, 2)]) for _ in range(rank)]
        expr, res = None, None
        while not kinds:  # an op at the root: a bare load is a copy
            del ints[:], leaves[:], ref[:], pre_stmts[:]
            expr, res = node(shape, 0)
        n = max(1, prod(shape))
        # stored in another block: TLX buffers the result
        flag = var(1) if rng.random() < 0.2 else None
        params = ", ".join(["int v%d" % i for i in range(len(ints))] +
                           ["const %s *%s" % (ctype, a) for a, _ in leaves] +
                           ["%s *c" % ctype])
        body = pre_stmts + (
            ["  tlx_token_t r = %s;" % expr,
             "  if (%s)" % flag, "    TLX_STORE(c, r);"] if flag else
            ["  TLX_STORE(c, %s);" % expr])
        self.fns.append("\n".join(
            ["static TLXP_NOINLINE void %s(%s) {" % (fn, params)] + body +
            ["}"]))
        d = pre + "dims"
        self.decls.append("volatile int %s[%d] = {%s};" % (
            d, max(1, len(ints)), ", ".join(str(v) for v in ints) or "0"))
        for a, na in leaves:
            self.decls.append("static %s %s[%d];" % (ctype, a, max(1, na)))
            self.inits.append(
                "for (int i = 0; i < %d; i++) %s[i] = (%s)((int)(((unsigned)"
                "(i + %d) * 2654435761u) >> 28) - 8) / 4;" % (
                    na, a, ctype, len(a)))
        for a in ("got", "exp"):
            self.decls.append("static %s %s%s[%d];" % (ctype, pre, a, n))
        self.inits.append("for (int i = 0; i < %d; i++) %sgot[i] = %sexp[i] "
                          "= (%s)7;" % (n, pre, pre, ctype))
        self.R("{ /* runtime-sizes fused %s -> %s */" % (
            " ".join(kinds), "x".join(map(str, shape))))
        self.R("\n".join(ref))
        self.R("  for (int i = 0; i < %d; i++) %sexp[i] = %s[i];" % (
            prod(shape), pre, res))
        self.R("}")
        self.T("%s(%s);" % (fn, ", ".join(
            ["%s[%d]" % (d, i) for i in range(len(ints))] +
            [a for a, _ in leaves] + [pre + "got"])))
        self.checks.append(("runtime-sizes fused %s %s" % (
            " ".join(kinds), "x".join(map(str, shape))),
            pre + "got", pre + "exp", dt, n, 0.0, 0.0))
        self.tags.add("runtime-sizes")

    def construct_reload(self):
        """Loads an array region the program stored (reads new values)."""
        arrs = [a for a in self.arrs if a.written and a.regions]
        if not arrs:
            return None
        a = self.rng.choice(arrs)
        off, blas, shape = self.rng.choice(a.regions)
        r = len(shape)
        layout = self.rand_layout(r)
        logical = [0] * r
        for i, l in enumerate(layout):
            logical[l] = shape[i]
        v = Val(self, a.dt, logical)
        v.layout = layout
        v.padding = self.rand_padding(r)
        v.tok = "t%d" % v.id
        if is_float(a.dt):
            v.mag = 1e30
            v.err, v.rel = a.atol, a.rtol
            # values are those of the stored tensors: reuse their bound
            v.mag = max([x.mag for x in self.vals if x.dt == a.dt] + [2.0])
            v.q = None
            v.nan = any(x.nan for x in self.vals if x.dt == a.dt)
        self.T("int %s = tensor_load(%s + %d, %s, %s, %s, %s);" %
               (v.tok, a.name, off, ivec(shape), ivec(layout),
                ivec(v.padding), ivec(blas)))
        self.rdecl(v)
        self.ref_mem(v, a, off, blas, True)
        v.load = (a, off, blas)
        v.load_w = a.nwrites
        v.what = "reload %s of %s" % (logical, a.name)
        self.vals.append(v)
        self.tags.add("reload")
        return v

    # -- output -------------------------------------------------------------
    def emit(self):
        L = []
        L.append("/* case %d (seed %d): %s; features: %s */" % (
            self.index, self.seed, ", ".join(self.opnames),
            ", ".join(sorted(self.tags)) or "-"))
        L.extend(self.protos)
        L.extend(self.globs)
        if self.fns:
            L.append("#ifndef TLXP_REF_ONLY")
            L.extend(self.fns)
            L.append("#endif")
        L.append("static TLXP_NOINLINE int case_%d(int argc) {" % self.index)
        L.append("  (void)argc;")
        for a in self.arrs:
            L.append("  static %s %s[%d];" % (DT[a.dt][0], a.name, a.n))
            L.append("  static %s %s_r[%d];" % (DT[a.dt][2], a.name, a.n))
        L.extend("  " + d for d in self.decls)
        seed = self.rng.getrandbits(32)
        for i, a in enumerate(self.arrs):
            if a.kind == "in":
                L.append("  tlxp_fill(%s_r, %s, %d, %du, %d);" % (
                    a.name, DT[a.dt][5], a.n, (seed + 7919 * i) & 0xffffffff,
                    a.fill_mode))
            else:
                L.append("  memset(%s_r, 0x5a, sizeof %s_r);" % (a.name,
                                                                 a.name))
            L.append("  memcpy(%s, %s_r, sizeof %s);" % (a.name, a.name,
                                                          a.name))
        L.extend("  " + s for s in self.inits)
        L.append("  { /* reference: plain C loops */")
        L.extend("    " + s for s in self.ref)
        L.append("  }")
        L.append("#ifndef TLXP_REF_ONLY")
        L.append("  { /* TLX */")
        L.extend("    " + s for s in self.tlx)
        L.append("  }")
        L.extend("  " + s for s in self.post)
        L.append("#else")
        for a in self.arrs:
            L.append("  memcpy(%s, %s_r, sizeof %s);" % (a.name, a.name,
                                                          a.name))
        for _, got, exp, _, _, _, _ in self.checks:
            L.append("  memcpy(%s, %s, sizeof %s);" % (got, exp, got))
        L.append("#endif")
        L.append("  int bad = 0;")
        k = 0
        for a in self.arrs:
            what = "array %s (%s)" % (a.name, getattr(a, "why", "input"))
            L.append('  bad += tlxp_check(%d, %d, "%s", %s, %s_r, %s, %d, '
                     '%r, %r);' % (self.index, k, cstr(what), a.name, a.name,
                                   DT[a.dt][5], a.n, a.atol, a.rtol))
            k += 1
        for what, got, exp, dt, n, atol, rtol in self.checks:
            L.append('  bad += tlxp_check(%d, %d, "%s", %s, %s, %s, %d, '
                     '%r, %r);' % (self.index, k, cstr(what), got, exp,
                                   DT[dt][5], n, atol, rtol))
            k += 1
        L.append("  return bad != 0;")
        L.append("}")
        return "\n".join(L)

    def describe(self):
        return "%s; features: %s" % (", ".join(self.opnames),
                                     ", ".join(sorted(self.tags)) or "-")


def strides_of(ext, ld):
    """Element strides per storage dim of extents ext with BLAS-style
    leading dims ld (0: packed)."""
    st = [1] * len(ext)
    for i in range(len(ext) - 2, -1, -1):
        st[i] = ld[i + 1] if ld[i + 1] else st[i + 1] * ext[i + 1]
    return st


def padded_lds(rng, ext):
    """BLAS-style leading dims for storage extents ext: each 0 (packed) or
    a few elements more than the span of the dims inside it (chosen from
    the inside out, as the strides they make)."""
    r = len(ext)
    ld, st = [0] * r, [1] * r
    for i in range(r - 1, 0, -1):
        span = sum((max(ext[j], 1) - 1) * st[j] for j in range(i, r)) + 1
        ld[i] = 0 if rng.random() < 0.5 else span + rng.randint(1, 3)
        st[i - 1] = ld[i] or st[i] * ext[i]
    return ld


def reach(ext, st):
    """Elements from the first to one past the last address."""
    if any(e == 0 for e in ext):
        return 0
    return sum((e - 1) * s for e, s in zip(ext, st)) + 1


def cstr(s):
    return s.replace("\\", "\\\\").replace('"', "'")


PRELUDE = r"""
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef TLXP_REF_ONLY
#include <tlx.h>
/* the long form of run-time-sized results (reshape.block) */
TLX_DECLARE_TENSOR_OPS_AS(tlx_float_result_t, rtf32)
TLX_DECLARE_TENSOR_OPS_AS(tlx_int32_result_t, rti32)
#endif
#pragma STDC FP_CONTRACT OFF

#define TLXP_NOINLINE __attribute__((noinline))
enum { TLXP_F32, TLXP_BF16, TLXP_I32, TLXP_I8 };
typedef int tlxp_i1 __attribute__((ext_vector_type(1)));
typedef int tlxp_i2 __attribute__((ext_vector_type(2)));
typedef int tlxp_i3 __attribute__((ext_vector_type(3)));
typedef int tlxp_i4 __attribute__((ext_vector_type(4)));
typedef int tlxp_i5 __attribute__((ext_vector_type(5)));
typedef int tlxp_i6 __attribute__((ext_vector_type(6)));
typedef int tlxp_i7 __attribute__((ext_vector_type(7)));
typedef int tlxp_i8 __attribute__((ext_vector_type(8)));

/* bf16 <-> float, round to nearest even (plain C; no runtime library). */
static uint16_t tlxp_f2bf(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return (uint16_t)((u >> 16) | 0x40u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}
static float tlxp_bf2f(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static float tlxp_bf16r(float f) { return tlxp_bf2f(tlxp_f2bf(f)); }
/* llvm.maximum / llvm.minimum: NaN wins, -0 < +0. */
static float tlxp_fmaximum(float a, float b) {
  if (a != a || b != b) return NAN;
  if (a == b) return signbit(a) ? b : a;
  return a > b ? a : b;
}
static float tlxp_fminimum(float a, float b) {
  if (a != a || b != b) return NAN;
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
}

/* SplitMix64 data: mode 0 integers (full range with extremes), 1 floats
   k/8 with |k| <= 16, 2 floats k/8 with 1 <= k <= 16, 3 as 1 with NaN and
   -0.0 now and then. */
static uint64_t tlxp_next(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static void tlxp_fill(void *p, int k, size_t n, uint64_t seed, int mode) {
  uint64_t s = seed * 0x100000001b3ull + 12345;
  for (size_t i = 0; i < n; i++) {
    uint64_t r = tlxp_next(&s);
    if (k == TLXP_I32 || k == TLXP_I8) {
      int w = k == TLXP_I32 ? 32 : 8;
      uint64_t v;
      if ((r & 7) == 0) {
        static const int64_t pick[] = {0, 1, -1, 2};
        uint64_t sel = (r >> 3) % 6;
        v = sel < 4 ? (uint64_t)pick[sel]
                    : sel == 4 ? (uint64_t)1 << (w - 1)
                               : ((uint64_t)1 << (w - 1)) - 1;
      } else if ((r & 7) <= 3) {
        v = (uint64_t)((int64_t)((r >> 8) % 33) - 16);
      } else {
        v = r >> 3;
      }
      if (k == TLXP_I32) { int32_t x = (int32_t)(uint32_t)v; ((int32_t *)p)[i] = x; }
      else { int8_t x = (int8_t)(uint8_t)v; ((int8_t *)p)[i] = x; }
      continue;
    }
    float v;
    if (mode == 2)
      v = (float)((r >> 11) % 16 + 1) / 8.0f;
    else
      v = (float)((int)((r >> 11) % 33) - 16) / 8.0f;
    if (mode == 3 && (r & 15) == 0)
      v = ((r >> 4) & 1) ? NAN : -0.0f;
    if (k == TLXP_F32) ((float *)p)[i] = v;
    else ((uint16_t *)p)[i] = tlxp_f2bf(v);
  }
}

static double tlxp_get(const void *p, int k, size_t i) {
  switch (k) {
  case TLXP_F32: return ((const float *)p)[i];
  case TLXP_BF16: return tlxp_bf2f(((const uint16_t *)p)[i]);
  case TLXP_I32: return ((const int32_t *)p)[i];
  default: return ((const int8_t *)p)[i];
  }
}

static int tlxp_failures;
static int tlxp_check(int cs, int ck, const char *what, const void *got,
                      const void *exp, int k, size_t n, double atol,
                      double rtol) {
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; i++) {
    double g = tlxp_get(got, k, i), e = tlxp_get(exp, k, i);
    int ok;
    if (k == TLXP_F32 || k == TLXP_BF16)
      ok = (isnan(g) && isnan(e)) || g == e ||
           fabs(g - e) <= atol + rtol * fabs(e);
    else
      ok = g == e;
    if (!ok && bad++ == 0)
      first = i;
  }
  if (!bad)
    return 0;
  printf("FAIL case %d check %d (%s): %zu of %zu elements differ; first at "
         "element %zu: got %.9g expected %.9g (atol %g rtol %g)\n", cs, ck,
         what, bad, n, first, tlxp_get(got, k, first),
         tlxp_get(exp, k, first), atol, rtol);
  tlxp_failures++;
  return 1;
}
"""


def read_list(path):
    """Names from a file, one a line; '#' starts a comment."""
    if not os.path.isabs(path) and not os.path.exists(path):
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), path)
    out = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                out.append(line)
    return out


def parse_features(args):
    """The enabled feature set from parsed --no-*/--enable/--only flags."""
    feats = set(FEATURES) - DEFAULT_OFF
    if args.only:
        feats = set(TYPE_FEATURES)
        for f in args.only.split(","):
            feats.update(GROUPS.get(f.strip(), [f.strip()]))
    disable = args.disable or ""
    if disable.startswith("@"):
        disable = ",".join(read_list(disable[1:]))
    for f in disable.split(","):
        f = f.strip()
        if f:
            feats -= set(GROUPS.get(f, [f]))
    for f in (args.enable or "").split(","):
        f = f.strip()
        if f:
            feats |= set(GROUPS.get(f, [f]))
    for g in ("merges", "escapes", "inplace"):
        if getattr(args, "no_" + g):
            feats -= set(GROUPS[g])
    if args.no_big:
        feats.discard("big")
    if args.no_bf16:
        feats.discard("bf16")
    if args.nan:
        feats.add("nan")
    for f in feats:
        if f not in FEATURES:
            sys.exit("progs.py: unknown feature '%s' (--list-features)" % f)
    return feats


def parse_ops(s):
    if s in (None, "", "all"):
        return list(OPS)
    ops = [o.strip() for o in s.split(",") if o.strip()]
    for o in ops:
        if o not in OPS:
            sys.exit("progs.py: unknown op '%s'" % o)
    return ops


def make_parser():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--case", type=int, help="generate this case alone")
    ap.add_argument("--ops", default="all", help="comma-separated ops")
    ap.add_argument("--max-ops", type=int, default=8)
    ap.add_argument("--no-merges", action="store_true")
    ap.add_argument("--no-escapes", action="store_true")
    ap.add_argument("--no-inplace", action="store_true")
    ap.add_argument("--no-big", action="store_true")
    ap.add_argument("--no-bf16", action="store_true",
                    help="no __bf16 tensors (for C without __bf16)")
    ap.add_argument("--nan", action="store_true",
                    help="NaN and -0.0 in float inputs")
    ap.add_argument("--disable", default="",
                    help="comma-separated features (or groups) to turn off")
    ap.add_argument("--enable", default="", help="features to turn on")
    ap.add_argument("--only", default="",
                    help="exactly these features (groups allowed)")
    ap.add_argument("--list-features", action="store_true")
    ap.add_argument("-o", "--output", default="-")
    return ap


def parse_gen_args(argv):
    """(features, ops, max_ops) from generator flags (a list)."""
    a = make_parser().parse_args(argv)
    return parse_features(a), parse_ops(a.ops), a.max_ops


def generate(seed, indices, feats, ops, max_ops=8, flags=""):
    vtypes = set()
    progs = [Prog(seed, i, feats, ops, vtypes, max_ops) for i in indices]
    parts = ["/* Generated by test/Differential/progs.py --seed %d, cases %s"
             "%s. Do not edit. */" % (
                 seed, ",".join(str(i) for i in indices) if len(indices) < 4
                 else "%d..%d" % (indices[0], indices[-1]),
                 (" " + flags) if flags else ""), PRELUDE]
    for dt, n in sorted(vtypes):
        parts.append("typedef %s tlxp_%s_%d __attribute__((ext_vector_type("
                     "%d)));" % (DT[dt][0], dt, n, n))
    for dt, n in sorted(vtypes):
        parts.append("static TLXP_NOINLINE void tlxp_esc_tlxp_%s_%d(tlxp_%s_%d"
                     " v, void *dst, size_t n) { memcpy(dst, &v, n); }" %
                     (dt, n, dt, n))
    parts.append("")
    for p in progs:
        parts.append(p.emit())
        parts.append("")
    parts.append("int main(int argc, char **argv) {")
    parts.append("  (void)argv;")
    parts.append("  int failed = 0;")
    for p in progs:
        parts.append("  failed += case_%d(argc);" % p.index)
    parts.append('  printf("%%d programs, %%d failed\\n", %d, failed);' %
                 len(progs))
    parts.append("  return failed != 0;")
    parts.append("}")
    return "\n".join(parts) + "\n"


def describe(seed, index, feats, ops, max_ops=8):
    return Prog(seed, index, feats, ops, set(), max_ops).describe()


def main(argv=None):
    ap = make_parser()
    a = ap.parse_args(argv)
    if a.list_features:
        for f, d in FEATURES.items():
            print("%-18s %s%s" % (f, d, " (off by default)"
                                  if f in DEFAULT_OFF else ""))
        for g, fs in GROUPS.items():
            print("%-18s group: %s" % (g, ",".join(fs)))
        return 0
    feats = parse_features(a)
    ops = parse_ops(a.ops)
    indices = [a.case] if a.case is not None else \
        list(range(a.first, a.first + a.count))
    flags = " ".join(x for x in (argv if argv is not None else sys.argv[1:])
                     if x)
    text = generate(a.seed, indices, feats, ops, a.max_ops)
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

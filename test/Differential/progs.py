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
    "merge-typeinfo": "a vector variable assigned in both branches of an "
                      "if/else, a ?:, a switch or a loop (TLX results "
                      "without a typeinfo of their own, results with one, "
                      "C vectors, vector loads, by-value parameters, "
                      "tovector results), then ONE typeinfo of any layout "
                      "and padding names it; TLX ops, stores, a by-value "
                      "call, a global and element reads use it",
    "merge-untyped": "merge-typeinfo's producers that are TLX results "
                     "without a typeinfo of their own (unary ops, "
                     "transposes, broadcasts, matmul): written in the "
                     "merged typeinfo's layout",
    "loop-carry": "tensors carried by loops (constant sizes): mma "
                  "accumulators over k-blocks of A and B loaded with "
                  "offsets and leading dims, carried as a token or a "
                  "vector; f32 matmuls accumulated by acc = acc + p; "
                  "vectors carried with a typeinfo inside the loop; nested "
                  "loops, early exits, trip counts 0-3 from volatiles",
    "loop-carry-vector": "loop-carry's vectors carried by loops whose op "
                         "result in the loop has no typeinfo of its own "
                         "(the typeinfo at the loop's head names it)",
    "loop-carry-short": "loop-carry's short-form tokens: h = tlx_relu(h), "
                        "square transposes, layers h = relu(h x W[it]) "
                        "and acc = tlx_smma(acc, a_k, b_k)",
    "elem-after-use": "C vector variables (initialized in C, loaded, "
                      "by-value parameters, tovector and op results) read "
                      "element by element after vector_totensor, "
                      "tensor_typeinfo, a store of their token or an op "
                      "used them",
    "elem-after-use-const": "elem-after-use's constant C vectors (= {0}, "
                            "{} or a partial initializer, no element "
                            "writes)",
    "runtime-strides": "run-time-size trees (runtime-sizes' transpose, pad, "
                       "concat, broadcast - numpy and fill -, reduce.*, "
                       "reshapes, unary ops, C operators, contract, 1-D "
                       "convolutions with NCW/NWC kernels, GEMMs) whose "
                       "leaves have leading dims (packed, constant or "
                       "run-time) and constant or run-time extents",
    "runtime-strides-gemm": "matmul and the mma family with run-time sizes "
                            "or leading dims: A, B and the accumulator "
                            "row- or column-major, extents and leading dims "
                            "each constant or run-time, results stored "
                            "column-major or with a leading dim",
    "runtime-strides-conv": "2-D convolutions with run-time sizes or "
                            "leading dims: NCHW or channels-last inputs, "
                            "OIHW or OHWI kernels (layout (0,2,3,1)), "
                            "strides and kernel dilations",
    "runtime-interleaved": "C stores and TLX_STOREs to other (restrict) "
                           "pointers between a run-time-sized op and its "
                           "typeinfo, and between the typeinfo and its "
                           "readers",
    "runtime-select": "r <= q ? r : s on run-time-sized results "
                      "(ext_vector_type) with s a C variable (or a literal)",
    "runtime-mixed": "GEMMs of an operand of run-time extents and one of "
                     "constant extents, transposed or not: "
                     "tlx_matmul(a, tlx_transpose(b))",
    "runtime-loops": "short-form run-time-sized tokens carried by loops: "
                     "layers h = tlx_relu(tlx_matmul(h, TLX_LOAD(W[l], d, "
                     "d))), unary chains, mma accumulators (from memory "
                     "or a C scalar: tlx_smma(0, a, b))",
    "short-elementwise": "the short form's elementwise arithmetic: trees "
                         "of tlx_add, tlx_sub, tlx_mul, tlx_div, tlx_max, "
                         "tlx_min and tlx_relu over loads that broadcast "
                         "numpy-style (extents 1, fewer dims) and C "
                         "scalars (literals or variables, either side), "
                         "float or int32, constant or run-time extents, "
                         "subtrees used twice, results stored over an "
                         "operand (in place)",
    "short-scalar": "TLX_SCALAR: a full reduce_add/max/min of a load (or "
                    "its square), constant or run-time length, read as a "
                    "C value and used in C arithmetic and a branch",
    "skinny": "skinny products (docs/pipeline.md, \"Skinny products\"): "
              "matmul and the mma family with M or N from 1 to 17 against "
              "larger other extents, bf16 x f32 matmuls (mixed widths), "
              "and run-time-sized ones with W row- or column-major",
    "quantized": "batches whose k runs on across them - the group sums "
                 "of group-quantized weights: run-time-sized A stored "
                 "[m][nb][k] (rows lda apart) viewed [nb][m][k] through "
                 "layout (1, 0, 2), one pass over A (docs/pipeline.md, "
                 "\"Quantized weights\")",
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
# The constructs of the features below, each drawn from its own random
# stream ("progs-<tag>:S:I") with this chance per program: (feature, tag,
# chance, Prog method).
EXTRA_CONSTRUCTS = [
    ("merge-typeinfo", "mt", 0.14, "construct_merge_typeinfo"),
    ("loop-carry", "lc", 0.12, "construct_loop_carry"),
    ("elem-after-use", "eu", 0.1, "construct_elem_after_use"),
    ("runtime-strides", "rst", 0.08, "construct_runtime_strides"),
    ("runtime-strides-gemm", "rsg", 0.06, "construct_runtime_strides_gemm"),
    ("runtime-strides-conv", "rsc", 0.05, "construct_runtime_strides_conv"),
    ("runtime-interleaved", "rti", 0.07, "construct_runtime_interleaved"),
    ("runtime-select", "rsl", 0.06, "construct_runtime_select"),
    ("runtime-mixed", "rmx", 0.06, "construct_runtime_mixed"),
    ("runtime-loops", "rlp", 0.06, "construct_runtime_loops"),
    ("short-elementwise", "sew", 0.08, "construct_short_elementwise"),
    ("short-scalar", "ssc", 0.06, "construct_short_scalar"),
]
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

    def skinny_shape(self, rank, small):
        """A shape of rank dims whose dim `small` is 1..17, the others from
        the palette (the long side of a skinny product)."""
        s = self.rshape(rank)
        s[small] = self.rng.randint(1, 17)
        while prod(s) > self.max_elems and max(s) > 1:
            s[s.index(max(s))] //= 2
        return s

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
        skinny = self.on("skinny") and self.chance(0.3)
        if skinny:
            # weights of half the width of the activations (matmul widens)
            combos += [("bf16", "f32", "f32"), ("f32", "bf16", "f32")]
        combos = [c for c in combos if self.drawable(c) == list(c)]
        pref = [c for c in combos if c[0] in self.dts]
        mixed = [c for c in combos if c[0] != c[1]]
        ta, tb, to = self.rng.choice(
            mixed if mixed and self.chance(0.4) else
            pref if pref and self.chance(0.8) else combos)
        # A skinny product: M (small_m) or N from 1 to 17.
        small_m = skinny and self.chance(0.5)
        a = self.pick(lambda v: v.dt == ta and 2 <= v.rank <= 3 and
                      self.fine(v) and (not small_m or v.logical[-2] <= 17),
                      lambda: self.new_input(ta, self.skinny_shape(
                          self.rng.choice([2, 2, 2, 3]), -2) if small_m else
                          self.rshape(self.rng.choice([2, 2, 2, 3]))))
        batch, m, k = a.logical[:-2], a.logical[-2], a.logical[-1]
        small_n = skinny and not small_m

        def okb(v):
            return (v.dt == tb and v.rank == a.rank and v.logical[:-2] ==
                    batch and v.logical[-2] == k and self.fine(v) and
                    prod(batch) * m * v.logical[-1] <= self.max_elems and
                    (not small_n or v.logical[-1] <= 17))
        cap = max(1, self.max_elems // max(1, prod(batch) * m))
        b = self.pick(okb, lambda: self.new_input(
            tb, batch + [k, min(cap, self.rng.randint(1, 17)) if small_n else
                         self.rshape(1, cap)[0]]))
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
                if self.on("skinny") and self.chance(0.3):
                    sh = self.skinny_shape(len(sh), self.rng.choice([-1, -2]))
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
        # The constructs of merge-typeinfo .. runtime-loops, each from its
        # own random stream and after everything above: the rest of the
        # program is the same with and without them.
        for feat, tag, chance, meth in EXTRA_CONSTRUCTS:
            if self.on(feat):
                xr = random.Random("progs-%s:%d:%d" % (tag, self.seed,
                                                       self.index))
                if xr.random() < chance:
                    getattr(self, meth)(xr)

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
        if self.on("skinny") and rng.random() < 0.25:
            # a skinny product: M or N from 1 to 17, the other one and K
            # long (a matrix-vector product streams A or B)
            small, big = rng.randint(1, 17), rng.randint(65, 600)
            m, n = (small, big) if rng.random() < 0.5 else (big, small)
            kk = rng.choice([rng.randint(1, 40), rng.randint(100, 400)])
        # or A's matrices side by side along each row, [m][nb][k] (the
        # group sums of quantized weights: k runs on across the batch),
        # mostly with few columns of B and groups of 32 - or 16, 64, 128:
        # one, two or four vectors of k on some target, which the integer
        # kernels take in one step
        # (its own random stream: the programs without it stay as they were)
        qrng = random.Random("progs-quantized:%d:%d:%d" % (self.seed,
                                                           self.index,
                                                           self.nfn))
        grouped = self.on("quantized") and qrng.random() < 0.1
        if grouped:
            grouped_nbat = qrng.choice([qrng.randint(0, 3),
                                        qrng.randint(4, 12)])
            if qrng.random() < 0.6:
                n = qrng.choice([1, 1, 2, qrng.randint(3, 17)])
                kk = qrng.choice([32, 32, 64, 16, 128, qrng.randint(1, 40)])
                m = qrng.choice([qrng.randint(1, 20), qrng.randint(60, 300)])
        col_a = not grouped and rng.random() < 0.3
        lda = (m if col_a else kk) + rng.choice([0, 0, 1, 5])
        if grouped:  # a row of A holds every matrix's row
            lda = grouped_nbat * kk + qrng.choice([0, 0, 1, 5])
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
        if grouped:
            nbat = grouped_nbat
        dt = "f32" if op == "matmul" else "i32"
        k = "%d_%d" % (self.index, self.nfn)
        self.nfn += 1
        fn, pre = "tlxp_rts_%s" % k, "rts%s_" % k
        per_a = (kk * lda) if col_a else (m * lda)
        if grouped:
            per_a = kk  # (the next matrix's row starts k further)
        per_b, per_c = kk * ldb, m * ldc
        bats = 1 if nbat is None else nbat
        na = max(1, m * lda if grouped else bats * per_a)
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
        if grouped:
            ops[0] = ("tensor_load(a, TLX_SHAPE(%s, nb, k), TLX_LAYOUT(1, 0, "
                      "2), TLX_ZEROS(3), TLX_STRIDES(0, lda, 0))" % M)
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
            " col-major op1" if col_a else
            " op1 [m][nb][k]" if grouped else "",
            " in place" if inplace else "", " + relu" if relu else ""),
            pre + "got", pre + "exp", dt, nc, 0.0, 0.0))
        self.tags.add("runtime-sizes")
        if grouped:
            self.tags.add("quantized")

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

    def construct_runtime_fused(self, rng, strided=False):
        """A tree of transpose, pad, concat, broadcast (fill form),
        reshape.block, reshape.permute, reduce.*, unary ops, C operators
        (+ - * & | ^, on long-form results named by typeinfos, or with a
        scalar), contract (1-2 axes anywhere), 1-D convolutions and GEMMs
        of computed operands (results read twice and stored in another block too) over
        1-3-D tensors in memory whose extents, pad amounts, windows and
        strides are C variables (volatiles), any leaf layout, stored
        row-major: every element checked against plain C loops computing
        each op in turn into an array of its own (exact: the reduce windows
        fold in order in both). strided (feature runtime-strides): leaves
        with leading dims (packed, constant or run-time) and constant or
        run-time extents, channels-last kernels, and numpy broadcasts of
        leaves with constant 1s."""
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

        force_rt = [0]

        def rt_dims(sext, const=()):
            """A strided leaf of storage extents sext: (shape operand,
            strides operand, element strides, elements spanned); the
            extents constant (or those of dims `const`) or run-time (always
            below a C operator, whose operands' C type says their extents
            are run-time), the leading dims packed, constant or
            run-time."""
            r = len(sext)
            cshape = all(e >= 1 for e in sext) and rng.random() < 0.4 and \
                not force_rt[0]
            ld = padded_lds(rng, sext)
            cld = rng.random() < 0.5
            shp = [str(e) if cshape or i in const else var(e)
                   for i, e in enumerate(sext)]
            strs = ["0"] + ["0" if not ld[i] else str(ld[i]) if cld else
                            var(ld[i]) for i in range(1, r)]
            st = strides_of(sext, ld)
            return shp, strs, st, max(1, reach(sext, st))

        def slin(idx, st):
            return " + ".join("(%s) * %d" % (x, s) for x, s in zip(idx, st))

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
            if strided and depth < 3:
                ops += ["bcast", "bcast"]
            op = rng.choice(ops)
            out = tmp(shape)
            idx = ["i%d" % d for d in range(r)]
            if op == "leaf":
                layout = list(range(r))
                if r > 1 and rng.random() < 0.4:
                    rng.shuffle(layout)
                sext = [shape[l] for l in layout]
                name = "%sa%d" % (pre, len(leaves))
                if strided:
                    shp, strs, st, na = rt_dims(sext)
                    leaves.append((name, na))
                else:
                    leaves.append((name, prod(shape)))
                    st = strides_of(sext, [0] * r)
                off = " + ".join("i%d * %d" % (layout[d], st[d])
                                 for d in range(r))
                loops(shape, "%s[%s] = %s[%s];" % (out, lin(shape, idx),
                                                   name, off))
                if strided:
                    return ("tensor_load(%s, %s, %s, TLX_ZEROS(%d), %s)" % (
                        name, dims(shp), dims([str(l) for l in layout]), r,
                        dims(strs)), out)
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
                lda = shape[0]
                if strided:
                    shp, strs, st, na = rt_dims([kk, shape[0]])
                    leaves.append((name, na))
                    lda = st[0]
                else:
                    leaves.append((name, kk * shape[0]))
                loops(shape, "{ %s acc = 0; for (int p = 0; p < %d; p++) "
                      "acc %s; %s[%s] = acc; }" % (
                          ctype, kk,
                          ("+= %s[p * %d + i0] * %s[p * %d + i1]" % (
                              name, lda, xr, shape[1]))
                          if ctype == "float" else
                          ("= (int32_t)((uint32_t)acc + (uint32_t)%s[p * %d + "
                           "i0] * (uint32_t)%s[p * %d + i1])" % (
                               name, lda, xr, shape[1])),
                          out, lin(shape, idx)))
                if strided:
                    return ("tlx_matmul(tlx_transpose(tensor_load(%s, %s, "
                            "TLX_DIMS(0, 1), TLX_ZEROS(2), %s)), %s)" % (
                                name, dims(shp), dims(strs), x), out)
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
                if strided:
                    cshp, cstrs, cst, na = rt_dims(ysh)
                    leaves.append((name, na))
                else:
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
                yoff = slin(yi, cst) if strided else lin(ysh, yi)
                prodx = "%s[%s] * %s[%s]" % (xr, lin(xs, xi), name, yoff)
                loops(shape, "{ %s acc = 0; %sacc %s; %s[%s] = acc; }" % (
                    ctype, cl, ("+= %s" % prodx) if ctype == "float" else
                    "= (int32_t)((uint32_t)acc + (uint32_t)%s[%s] * "
                    "(uint32_t)%s[%s])" % (xr, lin(xs, xi), name, yoff),
                    out, lin(shape, idx)))
                if strided:
                    return ("tlx_contract(%s, tensor_load(%s, %s, "
                            "TLX_IDENTITY_LAYOUT(%d), TLX_ZEROS(%d), %s), "
                            "%s, %s)" % (
                                x, name, dims(cshp), len(ysh), len(ysh),
                                dims(cstrs), dims([str(a) for a in xax]),
                                dims([str(a) for a in yax])), out)
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
                if strided:
                    # kernel [O, C, kw] or channels last [O, kw, C]
                    klay = [0, 2, 1] if rng.random() < 0.5 else [0, 1, 2]
                    kl = [shape[1], c, kw]
                    kshp, kstrs, kst, na = rt_dims(
                        [kl[l] for l in klay], (klay.index(2),))
                    leaves.append((name, na))
                    kidx = ["i1", "c", "j"]
                    kw_ = slin([kidx[l] for l in klay], kst)
                    loops(shape, "{ %s acc = 0; for (int c = 0; c < %d; c++) "
                          "for (int j = 0; j < %d; j++) acc %s; %s[%s] = "
                          "acc; }" % (
                              ctype, c, kw,
                              ("+= %s[%s] * %s[%s]" % (
                                  name, kw_, xr,
                                  lin(ins, ["i0", "c", "i2 * %d + j * %d" %
                                            (st, kd)])))
                              if ctype == "float" else
                              ("= (int32_t)((uint32_t)acc + (uint32_t)%s[%s] "
                               "* (uint32_t)%s[%s])" % (
                                   name, kw_, xr,
                                   lin(ins, ["i0", "c", "i2 * %d + j * %d" %
                                             (st, kd)]))),
                              out, lin(shape, idx)))
                    return ("tlx_convolution(%s, tensor_load(%s, %s, %s, "
                            "TLX_ZEROS(3), %s), TLX_DIMS(%d), TLX_DIMS(1), "
                            "TLX_DIMS(%d))" % (
                                x, name, dims(kshp),
                                dims([str(l) for l in klay]), dims(kstrs), st,
                                kd), out)
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
                    force_rt[0] += 1
                    x, xr = node(shape, depth + 1)
                    force_rt[0] -= 1
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
            if op == "bcast":
                # numpy broadcast of a strided leaf whose broadcast dims
                # are constant 1s, to the run-time shape of the result's
                # typeinfo (the long form)
                rb = rng.randint(1, r)
                bd = [rng.random() < 0.5 for _ in range(rb)]
                ins = [1 if b else e for b, e in zip(bd, shape[r - rb:])]
                lay = list(range(rb))
                if rb > 1 and rng.random() < 0.4:
                    rng.shuffle(lay)
                name = "%sa%d" % (pre, len(leaves))
                shp, strs, bst, na = rt_dims(
                    [ins[l] for l in lay], [i for i in range(rb)
                                            if bd[lay[i]]])
                leaves.append((name, na))
                src = ["0" if bd[j] else "i%d" % (r - rb + j)
                       for j in range(rb)]
                loops(shape, "%s[%s] = %s[%s];" % (
                    out, lin(shape, idx), name,
                    slin([src[l] for l in lay], bst)))
                return ("tensor_typeinfo(tensor_broadcast_%s(tensor_load(%s, "
                        "%s, %s, TLX_ZEROS(%d), %s)), %s, "
                        "TLX_IDENTITY_LAYOUT(%d), TLX_ZEROS(%d))" % (
                            "rtf32" if ctype == "float" else "rti32", name,
                            dims(shp), dims([str(l) for l in lay]), rb,
                            dims(strs), dims([var(e) for e in shape]), r, r),
                        out)
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
        feat = "runtime-strides" if strided else "runtime-sizes"
        self.R("{ /* %s fused %s -> %s */" % (
            feat, " ".join(kinds), "x".join(map(str, shape))))
        self.R("\n".join(ref))
        self.R("  for (int i = 0; i < %d; i++) %sexp[i] = %s[i];" % (
            prod(shape), pre, res))
        self.R("}")
        self.T("%s(%s);" % (fn, ", ".join(
            ["%s[%d]" % (d, i) for i in range(len(ints))] +
            [a for a, _ in leaves] + [pre + "got"])))
        self.checks.append(("%s fused %s %s" % (
            feat, " ".join(kinds), "x".join(map(str, shape))),
            pre + "got", pre + "exp", dt, n, 0.0, 0.0))
        self.tags.add(feat)

    # -- the constructs of merge-typeinfo .. runtime-loops: building blocks -
    def x_ref(self, F, dt, logical, tok=None, layout=None, pad=None):
        return XV(dt, logical, F.decl(CT[dt], prod(logical)), tok, layout,
                  pad)

    def x_load(self, F, dt, logical, layout=None, pad=None, strided=True):
        """tensor_load of a fresh input array (random layout, padding,
        leading dims and offset unless given)."""
        rng = F.rng
        r = len(logical)
        if layout is None:
            layout = x_perm(rng, r, 0.5)
        if pad is None:
            pad = x_pad(rng, r)
        shape = [logical[l] for l in layout]
        blas = x_blas(rng, shape) if strided else [0] * r
        off = rng.choice([0, 0, 1, 3]) if strided else 0
        a = F.input(dt, off + span(shape, blas) + 2)
        v = self.x_ref(F, dt, logical, F.uid("t"), layout, pad)
        F.B("int %s = tensor_load(%s + %d, %s, %s, %s, %s);" % (
            v.tok, a, off, ivec(shape), ivec(layout), ivec(pad), ivec(blas)))
        idx = ["i%d" % d for d in range(r)]
        F.loops(logical, "%s[%s] = %s[%s];" % (
            v.ref, rmi(logical, idx), a, fli(logical, layout, idx, blas,
                                             off)))
        v.mm = False
        return v

    def x_unary(self, F, u, x):
        out = self.x_ref(F, x.dt, x.logical)
        F.R("for (int i = 0; i < %d; i++) { %s v = %s[i]; %s[i] = %s; }" % (
            x.n, CT[x.dt], x.ref, out.ref, XUNARY_C[u]))
        out.mm = getattr(x, "mm", False)
        return out

    def x_transpose1(self, F, x):
        lo = x.logical[:-2] + [x.logical[-1], x.logical[-2]]
        out = self.x_ref(F, x.dt, lo)
        idx = ["i%d" % d for d in range(len(lo))]
        si = idx[:-2] + [idx[-1], idx[-2]]
        F.loops(lo, "%s[%s] = %s[%s];" % (out.ref, rmi(lo, idx), x.ref,
                                          rmi(x.logical, si)))
        out.mm = getattr(x, "mm", False)
        return out

    def x_broadcast(self, F, x, lo):
        out = self.x_ref(F, x.dt, lo)
        idx = ["i%d" % d for d in range(len(lo))]
        off = len(lo) - len(x.logical)
        src = ["0" if e == 1 else idx[off + j]
               for j, e in enumerate(x.logical)]
        F.loops(lo, "%s[%s] = %s[%s];" % (out.ref, rmi(lo, idx), x.ref,
                                          rmi(x.logical, src)))
        out.mm = getattr(x, "mm", False)
        return out

    def x_matmul(self, F, a, b):
        lo = a.logical[:-2] + [a.logical[-2], b.logical[-1]]
        k = a.logical[-1]
        out = self.x_ref(F, a.dt, lo)
        idx = ["i%d" % d for d in range(len(lo))]
        ai = idx[:-1] + ["k"]
        bi = idx[:-2] + ["k", idx[-1]]
        if a.dt == "f32":
            body = ("{ float s = 0.0f; for (int k = 0; k < %d; k++) s = s + "
                    "%s[%s] * %s[%s]; %s[%s] = s; }")
        else:
            body = ("{ uint32_t s = 0u; for (int k = 0; k < %d; k++) s += "
                    "(uint32_t)%s[%s] * (uint32_t)%s[%s]; %s[%s] = "
                    "(int32_t)s; }")
        F.loops(lo, body % (k, a.ref, rmi(a.logical, ai), b.ref,
                            rmi(b.logical, bi), out.ref, rmi(lo, idx)))
        out.mm = True
        return out

    def x_reduce(self, F, x, kind, win, st):
        lo = [(e - w) // s + 1 for e, w, s in zip(x.logical, win, st)]
        out = self.x_ref(F, x.dt, lo)
        r = len(lo)
        idx = ["i%d" % d for d in range(r)]
        wl = "".join("for (int w%d = 0; w%d < %d; w%d++) " % (d, d, win[d], d)
                     for d in range(r))
        src = ["i%d * %d + w%d" % (d, st[d], d) for d in range(r)]
        ct = CT[x.dt]
        f = {"max": "v > acc ? v : acc", "min": "v < acc ? v : acc",
             "add": "acc + v" if x.dt == "f32" else
             "(int32_t)((uint32_t)acc + (uint32_t)v)"}[kind]
        F.loops(lo, "{ %s acc = 0; int first = 1; %s{ %s v = %s[%s]; if "
                "(first) { acc = v; first = 0; } else acc = %s; } %s[%s] = "
                "acc; }" % (ct, wl, ct, x.ref, rmi(x.logical, src), f,
                            out.ref, rmi(lo, idx)))
        out.mm = getattr(x, "mm", False)
        return out

    def x_scatter(self, F, x, layout, dst=None):
        """The flat image of x stored with layout (packed)."""
        flat = dst or F.decl(CT[x.dt], x.n)
        idx = ["i%d" % d for d in range(len(x.logical))]
        F.loops(x.logical, "%s[%s] = %s[%s];" % (
            flat, fli(x.logical, layout, idx), x.ref, rmi(x.logical, idx)))
        return flat

    def x_gather(self, F, dt, flat, logical, layout):
        """The logical tensor whose storage-order positions flat holds."""
        out = self.x_ref(F, dt, logical, layout=list(layout))
        idx = ["i%d" % d for d in range(len(logical))]
        F.loops(logical, "%s[%s] = %s[%s];" % (
            out.ref, rmi(logical, idx), flat, fli(logical, layout, idx)))
        return out

    def x_store(self, F, x, tok, what, layout=None, short=False):
        """tensor_store of tok (x, stored with layout) into a checked
        output array at a random offset with random leading dims;
        TLX_STORE (row-major, packed) when short."""
        rng = F.rng
        r = len(x.logical)
        layout = x.layout if layout is None else layout
        if short:
            layout = list(range(r))
        shape = [x.logical[l] for l in layout]
        blas = [0] * r if short else x_blas(rng, shape)
        off = 0 if short else rng.choice([0, 0, 2])
        got, exp = F.output(x.dt, off + span(shape, blas) + 2, what)
        if short:
            F.B("TLX_STORE(%s, %s);" % (got, tok))
        else:
            F.B("tensor_store(%s + %d, %s, %s);" % (got, off, tok,
                                                    ivec(blas)))
        idx = ["i%d" % d for d in range(r)]
        F.loops(x.logical, "%s[%s] = %s[%s];" % (
            exp, fli(x.logical, layout, idx, blas, off), x.ref,
            rmi(x.logical, idx)))

    def x_lit(self, F, dt):
        if dt == "f32":
            return cfloat(F.rng.randint(-16, 16) / 8.0)
        return str(F.rng.randint(-50, 50))

    # -- merge-typeinfo ----------------------------------------------------
    def mt_operand(self, F, dt, L):
        """An operand of logical extents L: a load, or an op result with a
        typeinfo of its own (random layout and padding)."""
        rng = F.rng
        c = rng.random()
        if c < 0.6:
            return self.x_load(F, dt, L)
        r = len(L)
        if c < 0.8:
            base = self.x_load(F, dt, L)
            u = rng.choice(x_unaries(dt))
            op, args = u, base.tok
            out = self.x_unary(F, u, base)
        else:
            lb = [e if rng.random() < 0.5 else 1 for e in L]
            base = self.x_load(F, dt, lb)
            op, args = "broadcast", base.tok
            out = self.x_broadcast(F, base, L)
        vt, sfx = F.vtype(dt, prod(L))
        lay = x_perm(rng, r, 0.3)
        pad = x_pad(rng, r)
        d, tok = F.uid("d"), F.uid("t")
        F.B("%s %s = tensor_%s_%s(%s);" % (vt, d, op, sfx, args))
        F.B("int %s = tensor_typeinfo(%s, %s, %s, %s);" % (
            tok, d, ivec([L[l] for l in lay]), ivec(lay), ivec(pad)))
        out.tok, out.layout, out.pad = tok, lay, pad
        return out

    def mt_op(self, F, kind, dt, L, lay, sfx):
        """An op whose logical result is L, typed (later) with layout lay:
        (C expression, reference XV, description)."""
        rng = F.rng
        r = len(L)
        if kind == "unary":
            x = self.mt_operand(F, dt, L)
            u = rng.choice(x_unaries(dt))
            return ("tensor_%s_%s(%s)" % (u, sfx, x.tok),
                    self.x_unary(F, u, x), u)
        if kind == "t1":
            x = self.mt_operand(F, dt, L[:-2] + [L[-1], L[-2]])
            return ("tensor_transpose_%s(%s)" % (sfx, x.tok),
                    self.x_transpose1(F, x), "transpose(t)")
        if kind == "tP":
            x = self.mt_operand(F, dt, L)
            return ("tensor_transpose_%s(%s, %s)" % (sfx, x.tok, ivec(lay)),
                    x, "transpose(t, %s)" % lay)
        if kind == "bc":
            if rng.random() < 0.2:
                x = self.mt_operand(F, dt, L)
                s = self.x_lit(F, dt)
                out = self.x_ref(F, dt, L)
                F.R("for (int i = 0; i < %d; i++) %s[i] = %s;" % (
                    out.n, out.ref, s))
                out.mm = False
                return ("tensor_broadcast_%s(%s, (%s)%s)" % (
                    sfx, x.tok, CT[dt], s), out, "broadcast(t, %s)" % s)
            rb = rng.randint(1, r)
            lb = [e if rng.random() < 0.5 else 1 for e in L[r - rb:]]
            x = self.x_load(F, dt, lb)
            return ("tensor_broadcast_%s(%s)" % (sfx, x.tok),
                    self.x_broadcast(F, x, L), "broadcast %s" % lb)
        # matmul
        k = rng.randint(1, 6)
        a = self.mt_operand(F, dt, L[:-2] + [L[-2], k])
        b = self.mt_operand(F, dt, L[:-2] + [k, L[-1]])
        return ("tensor_matmul_%s(%s, %s)" % (sfx, a.tok, b.tok),
                self.x_matmul(F, a, b), "matmul K=%d" % k)

    def mt_flat(self, F, dt, L, vt, sfx, captured, kinds=None,
                const_ok=True):
        """A producer whose value is flat data: (expression, flat reference,
        description, from a matmul?). const_ok: C vectors may be constants
        (no element writes), "often": are more often than not."""
        rng = F.rng
        N = prod(L)
        es = 4
        kind = rng.choice(kinds or ["typed", "typed", "cvec", "cvec", "mem",
                                    "param", "tovec"])
        if kind == "typed":
            # an op result with a typeinfo of its own, of another shape
            # and layout; sometimes read by an op before the merge
            L2 = rng.choice([list(L), rng.sample(L, len(L)),
                             x_factor(rng, N, rng.randint(1, 4))])
            r2 = len(L2)
            lay2 = x_perm(rng, r2, 0.2)
            pad2 = x_pad(rng, r2)
            ops = ["unary", "unary", "bc", "tP"] + (
                ["t1", "mm", "mm"] if r2 >= 2 else [])
            k2 = rng.choice(ops)
            expr, x, desc = self.mt_op(F, k2, dt, L2, lay2, sfx)
            w, tw = F.uid("w"), F.uid("t")
            F.B("%s %s = %s;" % (vt, w, expr))
            F.B("int %s = tensor_typeinfo(%s, %s, %s, %s);" % (
                tw, w, ivec([L2[l] for l in lay2]), ivec(lay2), ivec(pad2)))
            F.B("(void)%s;" % tw)
            x2 = XV(dt, L2, x.ref, tw, lay2, pad2)
            if not captured and rng.random() < 0.4:
                # read by an op before the merge
                u = rng.choice(x_unaries(dt))
                self.x_store(F, self.x_unary(F, u, x2),
                             "tlx_%s(%s)" % (u, tw),
                             "%s of the %s before the merge" % (u, desc),
                             short=True)
            elif not captured and rng.random() < 0.3:
                self.x_store(F, x2, tw, "store of the %s before the merge" %
                             desc)
            return (w, self.x_scatter(F, x2, lay2),
                    "%s typed %s layout %s" % (desc, L2, lay2),
                    getattr(x, "mm", False))
        if kind == "cvec":
            c = F.uid("c")
            style = rng.choice(["{0}", "{}", "partial", "loop"])
            vals = {}
            init = "{0}" if style == "loop" else style
            if style == "partial":
                for j in range(rng.randint(1, min(4, N))):
                    vals[j] = self.x_lit(F, dt)
                init = "{%s}" % ", ".join(vals[j] for j in range(len(vals)))
            F.B("%s %s = %s;" % (vt, c, init))
            flat = F.decl(CT[dt], N)
            F.R("memset(%s, 0, sizeof %s);" % (flat, flat))
            if style == "loop":
                F.B("for (int e = 0; e < %d; e++) %s[e] = (%s)(e %% 7 - 3);" %
                    (N, c, CT[dt]))
                F.R("for (int e = 0; e < %d; e++) %s[e] = (%s)(e %% 7 - 3);"
                    % (N, flat, CT[dt]))
            for j, x in sorted(vals.items()):
                F.R("%s[%d] = %s;" % (flat, j, x))
            # (no element writes: a constant vector)
            nw = rng.choice([0, 0, 1, 2, 3, 4])
            if not const_ok and style != "loop":
                nw = max(nw, 1)
            elif const_ok == "often" and rng.random() < 0.6:
                nw = 0
            for _ in range(nw):
                j, x = rng.randrange(N), self.x_lit(F, dt)
                pos = str(j)
                if rng.random() < 0.4:
                    pos = "%d + %s" % (j, F.vint(0)[1])
                F.B("%s[%s] = %s;" % (c, pos, x))
                F.R("%s[%d] = %s;" % (flat, j, x))
            return c, flat, "C vector %s" % style, False
        if kind == "mem":
            nb = 1
            while nb < N * es:
                nb *= 2
            a = F.input(dt, nb // es, align=nb)
            return "(*(const %s *)%s)" % (vt, a), a, "vector load", False
        if kind == "param":
            a = F.data(dt, N)
            pv, arg = F.uid("p"), F.uid("arg")
            F.params.append("%s %s" % (vt, pv))
            F.args.append(arg)
            F.before.append("%s %s; memcpy(&%s, %s, %d);" % (vt, arg, arg, a,
                                                            N * es))
            return pv, a, "by-value parameter", False
        # tovector of a tensor of N elements, any shape and layout
        L3 = rng.choice([list(L), x_factor(rng, N, rng.randint(1, 4))])
        x = self.mt_operand(F, dt, L3)
        return ("tensor_tovector_%s(%s)" % (sfx, x.tok), x.ref,
                "tovector of %s layout %s" % (L3, x.layout), False)

    def mt_producer(self, F, dt, L, lay, vt, sfx, flat_only, captured):
        """(expression, flat reference, description, from a matmul?)."""
        rng = F.rng
        N = prod(L)
        kinds = ["typed"] * 3 + ["cop"] * 2 + ["flat"] * 4
        if not flat_only and self.on("merge-untyped"):
            kinds += ["unary"] * 3 + ["t1"] * 2 + ["tP", "bc"] * 2 + \
                ["mm"] * 2
        kind = rng.choice(kinds)
        F.untyped = None
        if kind in ("unary", "t1", "tP", "bc", "mm"):
            expr, x, desc = self.mt_op(F, kind, dt, L, lay, sfx)
            # The layout the op writes when nothing names its result: a
            # permuting transpose its permutation, a one-operand broadcast
            # none (it needs a typeinfo), any other logical row-major.
            own = list(range(len(L)))
            if kind == "tP":
                own = list(lay)
            elif kind == "bc" and not desc.startswith("broadcast("):
                own = None
            F.untyped = (x, own)
            return (expr, self.x_scatter(F, x, lay), desc + " (no typeinfo)",
                    getattr(x, "mm", False))
        if kind == "typed":
            return self.mt_flat(F, dt, L, vt, sfx, captured, ["typed"])
        if kind == "flat":
            return self.mt_flat(F, dt, L, vt, sfx, captured)
        # a C operator on flat values
        ea, fa, da, ma = self.mt_flat(F, dt, L, vt, sfx, captured)
        ops = ["+", "-", "*", "neg", "*k"] + (["&", "|", "^"]
                                              if dt == "i32" else [])
        opr = rng.choice(ops)
        if opr == "*" and ma:
            opr = "+"
        flat = F.decl(CT[dt], N)
        if opr in ("neg", "*k"):
            k = self.x_lit(F, dt)
            expr = "(-%s)" % ea if opr == "neg" else "(%s * (%s)%s)" % (
                ea, CT[dt], k)
            if dt == "f32":
                e = "-a" if opr == "neg" else "a * %s" % k
            else:
                e = "(int32_t)(0u - (uint32_t)a)" if opr == "neg" else \
                    "(int32_t)((uint32_t)a * (uint32_t)(%s))" % k
            F.R("for (int i = 0; i < %d; i++) { %s a = %s[i]; %s[i] = %s; }" %
                (N, CT[dt], fa, flat, e))
            return expr, flat, "C %s of %s" % (opr, da), ma
        eb, fb, db, mb = self.mt_flat(F, dt, L, vt, sfx, captured)
        if opr == "*" and mb:
            opr = "-"
        expr = "(%s %s %s)" % (ea, opr, eb)
        e = "a %s b" % opr if dt == "f32" else \
            "(int32_t)((uint32_t)a %s (uint32_t)b)" % opr
        F.R("for (int i = 0; i < %d; i++) { %s a = %s[i], b = %s[i]; %s[i] = "
            "%s; }" % (N, CT[dt], fa, fb, flat, e))
        return expr, flat, "(%s) %s (%s)" % (da, opr, db), ma or mb

    def construct_merge_typeinfo(self, rng):
        """A vector variable assigned in both branches of an if/else, a ?:,
        a switch or a loop - TLX op results without a typeinfo of their
        own, op results with one, C vectors, vector loads, by-value
        parameters, tovector results - then ONE typeinfo names the merged
        vector (any layout and padding), and TLX ops, stores, a by-value
        call, a global and element reads use it. An op result without a
        typeinfo of its own is written in the merged typeinfo's layout;
        any other producer is flat data the typeinfo reinterprets."""
        F = XFn(self, "merge-typeinfo", rng)
        dt = rng.choice(["f32", "f32", "i32"])
        r = rng.choice([2, 2, 3, 3, 4])
        L = x_shape(rng, r, rng.choice([120, 300, 512, 1200]),
                    lo=rng.choice([1, 2, 2]), hi=rng.choice([5, 9]))
        while prod(L) < 4:
            L = x_shape(rng, r, 300, 2, 6)
        N = prod(L)
        lay = x_perm(rng, r, 0.15)
        pad = x_pad(rng, r)
        S = [L[l] for l in lay]
        vt, sfx = F.vtype(dt, N)
        ct = CT[dt]
        kind = rng.choice(["if", "select", "switch", "loop", "loop-acc"])
        nprod = rng.randint(3, 4) if kind == "switch" else 2
        F.what = "merge-typeinfo %s %s %s layout %s" % (kind, dt, L, lay)
        v = F.uid("v")
        branches = []
        anymm = False
        for j in range(nprod):
            cap = kind != "select" and rng.random() < 0.5
            saved = F.body
            if cap:
                F.body = []
            expr, flat, desc, mm = self.mt_producer(
                F, dt, L, lay, vt, sfx, kind == "loop-acc", cap)
            anymm = anymm or mm
            lines = F.body if cap else []
            F.body = saved
            post = []
            if kind not in ("select", "loop-acc") and rng.random() < 0.25 \
                    and not (F.untyped and F.untyped[1] is None):
                # element writes on the merged variable in the branch. An
                # op result they write is positions before the merge, in
                # the op's own layout (it has no typeinfo), as in
                # straight-line code (docs/pipeline.md, "Merged values");
                # only a result that reaches the merge itself takes the
                # merged typeinfo's.
                if F.untyped is not None:
                    flat = self.x_scatter(F, F.untyped[0], F.untyped[1])
                f2 = F.decl(ct, N)
                F.R("memcpy(%s, %s, sizeof %s);" % (f2, flat, f2))
                for _ in range(rng.randint(1, 2)):
                    jj, x = rng.randrange(N), self.x_lit(F, dt)
                    post.append("%s[%d] = %s;" % (v, jj, x))
                    F.R("%s[%d] = %s;" % (f2, jj, x))
                flat = f2
                desc += " + element writes"
            branches.append((lines, expr, post, flat, desc))
        m = F.decl(ct, N)

        def block(lines, expr, post, lhs=None):
            out = ["  " + s for s in lines]
            out.append("  " * F.ind + "%s = %s;" % (v, expr if lhs is None
                                                    else lhs))
            out.extend("  " * F.ind + s for s in post)
            return out
        descs = [b[4] for b in branches]
        if kind == "if":
            g, p = F.vint(rng.randint(0, 1))
            F.B("%s %s;" % (vt, v))
            F.B("if (%s) {" % p)
            F.body.extend("  " + s for s in block(*branches[0][:3]))
            F.B("} else {")
            F.body.extend("  " + s for s in block(*branches[1][:3]))
            F.B("}")
            F.R("if (%s) memcpy(%s, %s, sizeof %s); else memcpy(%s, %s, "
                "sizeof %s);" % (g, m, branches[0][3], m, m, branches[1][3],
                                 m))
        elif kind == "select":
            g, p = F.vint(rng.randint(0, 1))
            F.B("%s %s = %s ? %s : %s;" % (vt, v, p, branches[0][1],
                                           branches[1][1]))
            F.R("if (%s) memcpy(%s, %s, sizeof %s); else memcpy(%s, %s, "
                "sizeof %s);" % (g, m, branches[0][3], m, m, branches[1][3],
                                 m))
        elif kind == "switch":
            g, p = F.vint(rng.randint(0, nprod))
            F.B("%s %s;" % (vt, v))
            F.B("switch (%s) {" % p)
            F.R("switch (%s) {" % g)
            for j, b in enumerate(branches):
                lab = "default" if j == nprod - 1 else "case %d" % j
                F.B("%s: {" % lab)
                F.body.extend("  " + s for s in block(*b[:3]))
                F.B("  break;")
                F.B("}")
                F.R("%s: memcpy(%s, %s, sizeof %s); break;" % (lab, m, b[3],
                                                               m))
            F.B("}")
            F.R("}")
        else:
            g, p = F.vint(rng.choice([0, 1, 2, 3]))
            F.B("%s %s;" % (vt, v))
            F.body.extend(block(*branches[0][:3]))
            F.B("for (int it = 0; it < %s; it++) {" % p)
            b = branches[1]
            F.R("memcpy(%s, %s, sizeof %s);" % (m, branches[0][3], m))
            if kind == "loop":
                F.body.extend("  " + s for s in block(*b[:3]))
                F.R("for (int it = 0; it < %s; it++) memcpy(%s, %s, sizeof "
                    "%s);" % (g, m, b[3], m))
            else:
                opr = rng.choice(["+", "-"] if dt == "f32" else
                                 ["+", "-", "^"])
                F.body.extend("  " + s for s in block(
                    b[0], None, [], "%s %s %s" % (v, opr, b[1])))
                e = "%s[i] %s %s[i]" % (m, opr, b[3]) if dt == "f32" else \
                    "(int32_t)((uint32_t)%s[i] %s (uint32_t)%s[i])" % (
                        m, opr, b[3])
                F.R("for (int it = 0; it < %s; it++) for (int i = 0; i < %d; "
                    "i++) %s[i] = %s;" % (g, N, m, e))
                descs[1] = "%s= %s" % (opr, descs[1])
            F.B("}")
        F.what += ": %s" % " | ".join(descs)
        tm = F.uid("t")
        F.B("int %s = tensor_typeinfo(%s, %s, %s, %s);" % (
            tm, v, ivec(S), ivec(lay), ivec(pad)))
        F.B("(void)%s;" % tm)
        ml = self.x_gather(F, dt, m, L, lay)
        ml.tok, ml.pad = tm, pad
        self.x_uses(F, ml, v, vt, m, anymm)
        F.finish()

    def x_uses(self, F, x, v, vt, flat, mm, kinds=None, n=None):
        """1-3 uses of x (token x.tok, data v whose positions the reference
        flat holds): TLX ops, stores, a by-value call, a global, element
        reads."""
        rng = F.rng
        dt, L, N = x.dt, x.logical, x.n
        r = len(L)
        ct = CT[dt]
        kinds = kinds or ["store", "store", "op", "op", "mm", "tr", "red",
                          "arg", "glob", "elem", "elem"]
        if r < 2:
            kinds = [k for k in kinds if k not in ("mm", "tr")]
        for kind in rng.sample(kinds, min(len(kinds), n or
                                          rng.randint(1, 3))):
            if kind == "store":
                self.x_store(F, x, x.tok, "store of %s" % x.tok)
            elif kind == "op":
                u = rng.choice(x_unaries(dt))
                y = self.x_unary(F, u, x)
                if rng.random() < 0.5:
                    self.x_store(F, y, "tlx_%s(%s)" % (u, x.tok),
                                 "tlx_%s of %s" % (u, x.tok), short=True)
                else:
                    vt2, sfx2 = F.vtype(dt, N)
                    w, tw = F.uid("w"), F.uid("t")
                    y.layout, y.pad = x_perm(rng, r, 0.4), x_pad(rng, r)
                    F.B("%s %s = tensor_%s_%s(%s);" % (vt2, w, u, sfx2,
                                                      x.tok))
                    F.B("int %s = tensor_typeinfo(%s, %s, %s, %s);" % (
                        tw, w, ivec(y.shape), ivec(y.layout), ivec(y.pad)))
                    self.x_store(F, y, tw, "%s of %s, typed layout %s" % (
                        u, x.tok, y.layout))
            elif kind == "mm":
                if dt == "f32" and mm and L[-1] > 4:
                    continue  # (keep the float sums exact)
                b = self.x_load(F, dt, L[:-2] + [L[-1], rng.randint(1, 5)])
                self.x_store(F, self.x_matmul(F, x, b),
                             "tlx_matmul(%s, %s)" % (x.tok, b.tok),
                             "matmul of %s" % x.tok, short=True)
            elif kind == "tr":
                self.x_store(F, self.x_transpose1(F, x),
                             "tlx_transpose(%s)" % x.tok,
                             "transpose of %s" % x.tok, short=True)
            elif kind == "red":
                red = rng.choice(["max", "min", "add"])
                if rng.random() < 0.5:
                    win = [1] * (r - 1) + [L[-1]]
                    st = [1] * r
                else:
                    win = [rng.randint(1, e) for e in L]
                    st = [rng.randint(1, 2) for _ in L]
                self.x_store(F, self.x_reduce(F, x, red, win, st),
                             "tlx_reduce_%s(%s, %s, %s)" % (
                                 red, x.tok, ivec(win), ivec(st)),
                             "reduce.%s of %s" % (red, x.tok), short=True)
            elif kind == "arg":
                got, exp = F.output(dt, N, "%s by value" % v)
                F.B("%s(%s, %s);" % (F.sink(vt, N * 4), v, got))
                F.R("memcpy(%s, %s, %d);" % (exp, flat, N * 4))
            elif kind == "glob":
                got, exp = F.output(dt, N, "%s in a global" % v)
                g = F.uid("g")
                F.top.append("static %s %s;" % (vt, g))
                F.B("%s = %s;" % (g, v))
                F.after.append("memcpy(%s, &%s, %d);" % (got, g, N * 4))
                F.R("memcpy(%s, %s, %d);" % (exp, flat, N * 4))
            else:
                got, exp = F.output(dt, N, "element reads of %s" % v)
                if rng.random() < 0.5:
                    F.B("for (int e = 0; e < %d; ++e) %s[e] = %s[e];" % (
                        N, got, v))
                    F.R("memcpy(%s, %s, %d);" % (exp, flat, N * 4))
                else:
                    z = F.vint(0)[1]
                    for j in sorted(set(rng.randrange(N) for _ in range(4))):
                        pos = str(j) if rng.random() < 0.5 else \
                            "%d + %s" % (j, z)
                        F.B("%s[%d] = %s[%s];" % (got, j, v, pos))
                        F.R("%s[%d] = %s[%d];" % (exp, j, flat, j))

    # -- loop-carry ----------------------------------------------------------
    def x_open_loops(self, F, nest=None, trips=(0, 1, 1, 2, 3)):
        """Loops (1-2 deep) with trip counts from volatiles, now and then an
        early exit on a volatile flag, in the function and the reference
        alike. Returns (depth, the innermost index)."""
        rng = F.rng
        nest = nest or (2 if rng.random() < 0.3 else 1)
        it = None
        for _ in range(nest):
            g, p = F.vint(rng.choice(trips))
            it = F.uid("it")
            F.B("for (int %s = 0; %s < %s; %s++) {" % (it, it, p, it))
            F.R("for (int %s = 0; %s < %s; %s++) {" % (it, it, g, it))
            F.ind += 1
            self.ind += 1
            if rng.random() < 0.25:
                bg, bp = F.vint(rng.randint(0, 1))
                j = rng.randint(0, 2)
                F.B("if (%s && %s == %d) break;" % (bp, it, j))
                F.R("if (%s && %s == %d) break;" % (bg, it, j))
                F.what += " (break)"
        F.what += " nest %d" % nest
        return nest, it

    def x_close_loops(self, F, nest):
        for _ in range(nest):
            F.ind -= 1
            self.ind -= 1
            F.B("}")
            F.R("}")

    def x_init_vector(self, F, dt, N, vt, kinds=("cvec", "mem", "param")):
        """A C vector variable's initial value: (C declaration lines are
        emitted; returns (variable, flat reference))."""
        rng = F.rng
        expr, flat, desc, _ = self.mt_flat(F, dt, [N], vt, None, False,
                                           list(kinds))
        v = F.uid("v")
        F.B("%s %s = %s;" % (vt, v, expr))
        cur = F.decl(CT[dt], N)
        F.R("memcpy(%s, %s, sizeof %s);" % (cur, flat, cur))
        F.what += " init %s" % desc
        return v, cur

    def construct_loop_carry(self, rng):
        """Tensors carried by loops, constant sizes: short-form tokens
        (h = tlx_relu(h), square transposes, layers h = relu(h x W[it])),
        mma accumulators over k-blocks of A and B loaded with offsets and
        leading dimensions (short and long form, token or vector carried),
        f32 matmuls accumulated by `acc = acc + p`, and vectors carried with
        a typeinfo inside the loop; nested loops, early exits, trip counts
        0-3 from volatiles."""
        kind = rng.choice(["short", "short", "short-mma", "long-mma",
                           "long-mma", "f32-acc", "vec"])
        if kind == "short" and not self.on("loop-carry-short"):
            kind = "vec"
        if kind == "short-mma" and not self.on("loop-carry-short"):
            kind = "long-mma"
        F = XFn(self, "loop-carry", rng)
        F.what = "loop-carry %s" % kind
        getattr(self, "lc_" + kind.replace("-", "_"))(F)
        F.finish()

    def lc_short(self, F):
        rng = F.rng
        layer = rng.random() < 0.3
        dt = "i32" if layer or rng.random() < 0.4 else "f32"
        ct = CT[dt]
        r = 2 if layer else rng.choice([1, 2, 2, 3])
        L = x_shape(rng, r, 200, 1, 7)
        square = r >= 2 and rng.random() < 0.4
        if square:
            L[-1] = L[-2]
        N = prod(L)
        F.what += " %s %s" % (dt, L)
        c = rng.random()
        h = F.uid("h")
        if c < 0.4:
            a = F.input(dt, N)
            F.B("tlx_token_t %s = TLX_LOAD(%s, %s);" % (h, a, ", ".join(
                map(str, L))))
            cur = F.decl(ct, N)
            F.R("memcpy(%s, %s, sizeof %s);" % (cur, a, cur))
        elif c < 0.6:
            x = self.x_load(F, dt, L, layout=list(range(r)), pad=[0] * r)
            F.B("tlx_token_t %s = %s;" % (h, x.tok))
            cur = x.ref
        elif c < 0.8:
            a = F.input(dt, N)
            u = rng.choice(x_unaries(dt))
            F.B("tlx_token_t %s = tlx_%s(TLX_LOAD(%s, %s));" % (
                h, u, a, ", ".join(map(str, L))))
            cur = F.decl(ct, N)
            F.R("for (int i = 0; i < %d; i++) { %s v = %s[i]; %s[i] = %s; }"
                % (N, ct, a, cur, XUNARY_C[u]))
        else:
            vt, sfx = F.vtype(dt, N)
            v, cur = self.x_init_vector(F, dt, N, vt)
            F.B("tlx_token_t %s = tensor_typeinfo(%s, %s, %s, %s);" % (
                h, v, ivec(L), ivec(list(range(r))), ivec([0] * r)))
        D = L[-1]
        W = None
        if layer:
            W = F.input(dt, 4 * D * D)
        nest, it = self.x_open_loops(F)
        tmp = F.decl(ct, N)
        for _ in range(rng.randint(1, 2)):
            ops = x_unaries(dt) + (["transpose"] if square else []) + \
                (["layer"] * 3 if layer else [])
            op = rng.choice(ops)
            if op == "layer":
                F.B("%s = tlx_relu(tlx_matmul(%s, TLX_LOAD(%s + %s * %d, %d, "
                    "%d)));" % (h, h, W, it, D * D, D, D))
                F.R("for (int m = 0; m < %d; m++) for (int n = 0; n < %d; "
                    "n++) { uint32_t s = 0u; for (int k = 0; k < %d; k++) s "
                    "+= (uint32_t)%s[m * %d + k] * (uint32_t)%s[%s * %d + k * "
                    "%d + n]; %s[m * %d + n] = (int32_t)s > 0 ? (int32_t)s : "
                    "0; }" % (L[0], D, D, cur, D, W, it, D * D, D, tmp, D))
                F.R("memcpy(%s, %s, sizeof %s);" % (cur, tmp, cur))
            elif op == "transpose":
                F.B("%s = tlx_transpose(%s);" % (h, h))
                idx = ["i%d" % d for d in range(r)]
                si = idx[:-2] + [idx[-1], idx[-2]]
                F.loops(L, "%s[%s] = %s[%s];" % (tmp, rmi(L, idx), cur,
                                                 rmi(L, si)))
                F.R("memcpy(%s, %s, sizeof %s);" % (cur, tmp, cur))
            else:
                F.B("%s = tlx_%s(%s);" % (h, op, h))
                F.R("for (int i = 0; i < %d; i++) { %s v = %s[i]; %s[i] = %s; "
                    "}" % (N, ct, cur, cur, XUNARY_C[op]))
            F.what += " %s" % op
        self.x_close_loops(F, nest)
        x = XV(dt, L, cur, h)
        self.x_store(F, x, h, "the carried token", short=True)
        if rng.random() < 0.3:
            u = rng.choice(x_unaries(dt))
            self.x_store(F, self.x_unary(F, u, x), "tlx_%s(%s)" % (u, h),
                         "%s of the carried token" % u, short=True)

    def lc_mma_operands(self, F, op):
        """Arrays A (M x Kt, row- or column-major, leading dim, offset) and
        B (Kt x N likewise) of an mma/matmul over k-blocks of KB; returns
        a function emitting the loads of block kb and a reference term."""
        rng = F.rng
        ta, tb = {"umma": ("u8", "u8"), "smma": ("i8", "i8"),
                  "usmma": ("u8", "i8"), "summa": ("i8", "u8"),
                  "matmul": ("f32", "f32")}[op]
        M, N = rng.randint(1, 8), rng.randint(1, 8)
        KB, nk = rng.randint(1, 6), rng.randint(1, 4)
        Kt = KB * nk
        cola, colb = rng.random() < 0.35, rng.random() < 0.35
        lda = (M if cola else Kt) + rng.choice([0, 0, 1, 3])
        ldb = (Kt if colb else N) + rng.choice([0, 0, 2])
        oa, ob = rng.choice([0, 0, 1, 3]), rng.choice([0, 0, 2])
        na = oa + lda * ((Kt if cola else M) - 1) + (M if cola else Kt) + 1
        nb = ob + ldb * ((N if colb else Kt) - 1) + (Kt if colb else N) + 1
        A, B = F.input(ta, na), F.input(tb, nb)
        F.what += " %s %dx%d, %d blocks of K=%d%s%s" % (
            op, M, N, nk, KB, " A col-major" if cola else "",
            " B col-major" if colb else "")

        def loads(kb):
            ta_, tb_ = F.uid("ta"), F.uid("tb")
            if cola:
                F.B("tlx_token_t %s = tensor_load(%s + %d + %s * %d, "
                    "TLX_SHAPE(%d, %d), TLX_LAYOUT(1, 0), TLX_ZEROS(2), "
                    "TLX_STRIDES(0, %d));" % (ta_, A, oa, kb, KB * lda, KB, M,
                                              lda))
            else:
                F.B("tlx_token_t %s = tensor_load(%s + %d + %s * %d, "
                    "TLX_SHAPE(%d, %d), TLX_LAYOUT(0, 1), TLX_ZEROS(2), "
                    "TLX_STRIDES(0, %d));" % (ta_, A, oa, kb, KB, M, KB, lda))
            if colb:
                F.B("tlx_token_t %s = tensor_load(%s + %d + %s * %d, "
                    "TLX_SHAPE(%d, %d), TLX_LAYOUT(1, 0), TLX_ZEROS(2), "
                    "TLX_STRIDES(0, %d));" % (tb_, B, ob, kb, KB, N, KB, ldb))
            else:
                F.B("tlx_token_t %s = tensor_load(%s + %d + %s * %d, "
                    "TLX_SHAPE(%d, %d), TLX_LAYOUT(0, 1), TLX_ZEROS(2), "
                    "TLX_STRIDES(0, %d));" % (tb_, B, ob, kb, KB * ldb, KB, N,
                                              ldb))
            return ta_, tb_

        def term(kb):
            """The reference sum over block kb for (m, n) as uint32/float."""
            ai = ("%s[%d + (%s * %d + k) * %d + m]" % (A, oa, kb, KB, lda)
                  if cola else "%s[%d + m * %d + %s * %d + k]" % (
                      A, oa, lda, kb, KB))
            bi = ("%s[%d + n * %d + %s * %d + k]" % (B, ob, ldb, kb, KB)
                  if colb else "%s[%d + (%s * %d + k) * %d + n]" % (
                      B, ob, kb, KB, ldb))
            if op == "matmul":
                return "for (int k = 0; k < %d; k++) s = s + %s * %s;" % (
                    KB, ai, bi)
            return "for (int k = 0; k < %d; k++) s += (uint32_t)%s * " \
                "(uint32_t)%s;" % (KB, ai, bi)
        return M, N, nk, loads, term

    def lc_short_mma(self, F):
        rng = F.rng
        op = rng.choice(list(MMA))
        M, N, nk, loads, term = self.lc_mma_operands(F, op)
        C = F.input("i32", M * N)
        acc = F.uid("acc")
        F.B("tlx_token_t %s = TLX_LOAD(%s, %d, %d);" % (acc, C, M, N))
        cur = F.decl("int32_t", M * N)
        F.R("memcpy(%s, %s, sizeof %s);" % (cur, C, cur))
        nest, kb = self.x_open_loops(F, trips=list(range(nk + 1)))
        ta_, tb_ = loads(kb)
        F.B("%s = tlx_%s(%s, %s, %s);" % (acc, op, acc, ta_, tb_))
        F.R("for (int m = 0; m < %d; m++) for (int n = 0; n < %d; n++) { "
            "uint32_t s = (uint32_t)%s[m * %d + n]; %s %s[m * %d + n] = "
            "(int32_t)s; }" % (M, N, cur, N, term(kb), cur, N))
        self.x_close_loops(F, nest)
        self.x_store(F, XV("i32", [M, N], cur, acc), acc,
                     "the accumulator", short=True)

    def lc_long_mma(self, F):
        rng = F.rng
        op = rng.choice(list(MMA))
        M, N, nk, loads, term = self.lc_mma_operands(F, op)
        lay = [1, 0] if rng.random() < 0.5 else [0, 1]
        pad = x_pad(rng, 2)
        L = [M, N]
        S = [L[l] for l in lay]
        vt, sfx = F.vtype("i32", M * N)
        vector = rng.random() < 0.5
        untyped = rng.random() < 0.6 and self.on("loop-carry-vector")
        F.what += " acc layout %s%s" % (lay, (" (vector carried%s)" % (
            ", untyped" if untyped else "")) if vector else "")
        if vector:
            v, flat = self.x_init_vector(F, "i32", M * N, vt)
            cur = self.x_gather(F, "i32", flat, L, lay).ref
        else:
            x = self.x_load(F, "i32", L, layout=lay, pad=pad)
            acc = F.uid("acc")
            F.B("int %s = %s;" % (acc, x.tok))
            cur = x.ref
        nest, kb = self.x_open_loops(F, trips=list(range(nk + 1)))
        ta_, tb_ = loads(kb)
        if vector:
            t = F.uid("t")
            F.B("int %s = tensor_typeinfo(%s, %s, %s, %s);" % (
                t, v, ivec(S), ivec(lay), ivec(pad)))
            F.B("%s = tensor_%s_%s(%s, %s, %s);" % (v, op, sfx, t, ta_, tb_))
            if not untyped:
                F.B("tensor_typeinfo(%s, %s, %s, %s);" % (
                    v, ivec(S), ivec(lay), ivec(pad)))
        else:
            w = F.uid("w")
            F.B("%s %s = tensor_%s_%s(%s, %s, %s);" % (vt, w, op, sfx, acc,
                                                      ta_, tb_))
            F.B("%s = tensor_typeinfo(%s, %s, %s, %s);" % (
                acc, w, ivec(S), ivec(lay), ivec(pad)))
        F.R("for (int m = 0; m < %d; m++) for (int n = 0; n < %d; n++) { "
            "uint32_t s = (uint32_t)%s[m * %d + n]; %s %s[m * %d + n] = "
            "(int32_t)s; }" % (M, N, cur, N, term(kb), cur, N))
        self.x_close_loops(F, nest)
        x = XV("i32", L, cur, None, lay, pad)
        if vector:
            x.tok = F.uid("t")
            F.B("int %s = tensor_typeinfo(%s, %s, %s, %s);" % (
                x.tok, v, ivec(S), ivec(lay), ivec(pad)))
            self.x_uses(F, x, v, vt, self.x_scatter(F, x, lay), False,
                        ["store", "op", "elem", "elem", "arg", "glob"])
        else:
            x.tok = acc
            self.x_store(F, x, acc, "the accumulator")

    def lc_f32_acc(self, F):
        rng = F.rng
        M, N, nk, loads, term = self.lc_mma_operands(F, "matmul")
        L = [M, N]
        typed = rng.random() < 0.7
        lay = [1, 0] if typed and rng.random() < 0.5 else [0, 1]
        pad = x_pad(rng, 2) if typed else [0, 0]
        S = [L[l] for l in lay]
        vt, sfx = F.vtype("f32", M * N, ext=rng.random() < 0.7)
        v, flat = self.x_init_vector(F, "f32", M * N, vt)
        cur = self.x_gather(F, "f32", flat, L, lay).ref
        nest, kb = self.x_open_loops(F, trips=list(range(nk + 1)))
        ta_, tb_ = loads(kb)
        p = F.uid("p")
        F.B("%s %s = tensor_matmul_%s(%s, %s);" % (vt, p, sfx, ta_, tb_))
        if typed:
            F.B("int %s = tensor_typeinfo(%s, %s, %s, %s);" % (
                F.uid("t"), p, ivec(S), ivec(lay), ivec(pad)))
        F.B("%s = %s + %s;" % (v, v, p))
        F.what += " acc = acc + matmul%s layout %s" % (
            " (typed)" if typed else "", lay)
        F.R("for (int m = 0; m < %d; m++) for (int n = 0; n < %d; n++) { "
            "float s = 0.0f; %s %s[m * %d + n] = %s[m * %d + n] + s; }" % (
                M, N, term(kb), cur, N, cur, N))
        self.x_close_loops(F, nest)
        x = XV("f32", L, cur, F.uid("t"), lay, pad)
        F.B("int %s = tensor_typeinfo(%s, %s, %s, %s);" % (
            x.tok, v, ivec(S), ivec(lay), ivec(pad)))
        self.x_uses(F, x, v, vt, self.x_scatter(F, x, lay), False,
                    ["store", "store", "op", "elem", "arg", "glob"])

    def lc_vec(self, F):
        """A vector carried by a loop with a typeinfo inside the loop."""
        rng = F.rng
        dt = rng.choice(["f32", "i32"])
        r = rng.choice([1, 2, 2, 3])
        L = x_shape(rng, r, 300, 1, 7)
        N = prod(L)
        lay = x_perm(rng, r, 0.3)
        pad = x_pad(rng, r)
        S = [L[l] for l in lay]
        vt, sfx = F.vtype(dt, N)
        F.what += " %s %s layout %s" % (dt, L, lay)
        if rng.random() < 0.3:
            x = self.x_load(F, dt, L)
            u = rng.choice(x_unaries(dt))
            v = F.uid("v")
            F.B("%s %s = tensor_%s_%s(%s);" % (vt, v, u, sfx, x.tok))
            F.B("int %s = tensor_typeinfo(%s, %s, %s, %s);" % (
                F.uid("t"), v, ivec(S), ivec(lay), ivec(pad)))
            cur = self.x_unary(F, u, x).ref
            F.what += " init %s" % u
        else:
            v, flat = self.x_init_vector(F, dt, N, vt)
            cur = self.x_gather(F, dt, flat, L, lay).ref
        # the op's result in the loop has a typeinfo of its own, or (feature
        # loop-carry-vector) only the typeinfo at the loop's head names it
        untyped = rng.random() < 0.6 and self.on("loop-carry-vector")
        nest, it = self.x_open_loops(F)
        t = F.uid("t")
        F.B("int %s = tensor_typeinfo(%s, %s, %s, %s);" % (
            t, v, ivec(S), ivec(lay), ivec(pad)))
        op = rng.choice(x_unaries(dt) + ["transpose"])
        if op == "transpose":
            F.B("%s = tensor_transpose_%s(%s, %s);" % (v, sfx, t, ivec(lay)))
        else:
            F.B("%s = tensor_%s_%s(%s);" % (v, op, sfx, t))
            F.R("for (int i = 0; i < %d; i++) { %s v = %s[i]; %s[i] = %s; }" %
                (N, CT[dt], cur, cur, XUNARY_C[op]))
        if not untyped:
            F.B("tensor_typeinfo(%s, %s, %s, %s);" % (v, ivec(S), ivec(lay),
                                                      ivec(pad)))
        F.what += " %s%s" % (op, " (untyped)" if untyped else "")
        self.x_close_loops(F, nest)
        x = XV(dt, L, cur, F.uid("t"), lay, pad)
        F.B("int %s = tensor_typeinfo(%s, %s, %s, %s);" % (
            x.tok, v, ivec(S), ivec(lay), ivec(pad)))
        self.x_uses(F, x, v, vt, self.x_scatter(F, x, lay), False)

    # -- elem-after-use ------------------------------------------------------
    def construct_elem_after_use(self, rng):
        """A C vector variable - initialized in C, loaded, a by-value
        parameter, a tovector or op result - read element by element
        (all, or a few at constant and run-time positions) after TLX used
        it: vector_totensor, tensor_typeinfo, a tensor_store of its token,
        an op of it."""
        F = XFn(self, "elem-after-use", rng)
        dt = rng.choice(["f32", "f32", "i32"])
        r = rng.choice([1, 2, 2, 3, 4])
        # wide vectors (over 256 bytes) more often than not
        wide = rng.random() < 0.6
        L = x_shape(rng, r, rng.choice([80, 300, 1200]) if not wide else
                    rng.choice([300, 1200]), 1, 8 if not wide or r > 1 else
                    300, 65 if wide else 1)
        N = prod(L)
        vt, sfx = F.vtype(dt, N)
        src = rng.choice(["cvec", "cvec", "op", "op", "mem", "param",
                          "tovec"])
        F.what = "elem-after-use %s %s %s" % (src, dt, L)
        pending = None
        # An op result's typeinfos name its logical shape, a tovector
        # result's the 1-D one (docs/ops.md, "Result typeinfo"; a
        # vector_totensor first is not one); an op result without a
        # typeinfo of its own is first named by a typeinfo.
        first1d = src == "tovec"
        same = False
        if src == "op":
            x = self.x_load(F, dt, L)
            u = rng.choice(x_unaries(dt))
            z = F.uid("z")
            F.B("%s %s = tensor_%s_%s(%s);" % (vt, z, u, sfx, x.tok))
            res = self.x_unary(F, u, x)
            if rng.random() < 0.4:
                lay0, pad0 = x_perm(rng, r, 0.3), x_pad(rng, r)
                F.B("int %s = tensor_typeinfo(%s, %s, %s, %s);" % (
                    F.uid("t"), z, ivec([L[l] for l in lay0]), ivec(lay0),
                    ivec(pad0)))
                flat = self.x_scatter(F, res, lay0)
                F.what += " typed %s" % lay0
            else:
                flat, pending = None, res
                same = True
        else:
            expr, flat, desc, _ = self.mt_flat(
                F, dt, L, vt, sfx, False,
                [{"cvec": "cvec", "mem": "mem", "param": "param",
                  "tovec": "tovec"}[src]],
                const_ok=self.on("elem-after-use-const") and "often")
            z = F.uid("z")
            F.B("%s %s = %s;" % (vt, z, expr))
            F.what += " (%s)" % desc
        reads = 0
        for j in range(rng.randint(1, 3)):
            use = rng.choice(["totensor-store", "typeinfo-store", "typeinfo",
                              "totensor-op", "typeinfo-op"])
            if pending is not None:
                use = use.replace("totensor", "typeinfo")
            L2 = list(L) if same or rng.random() < 0.5 else \
                x_factor(rng, N, rng.randint(1, 4))
            if first1d and use.startswith("typeinfo"):
                L2 = [N]
            r2 = len(L2)
            lay2, pad2 = x_perm(rng, r2, 0.3), x_pad(rng, r2)
            S2 = [L2[l] for l in lay2]
            if use.startswith("totensor"):
                tok = "vector_totensor(%s, %s, %s, %s)" % (
                    z, ivec(S2), ivec(lay2), ivec(pad2))
                if pending is not None:
                    flat = pending.ref
                    pending = None
                val = XV(dt, L2, flat, tok, lay2, pad2)
            else:
                tok = F.uid("t")
                F.B("int %s = tensor_typeinfo(%s, %s, %s, %s);" % (
                    tok, z, ivec(S2), ivec(lay2), ivec(pad2)))
                F.B("(void)%s;" % tok)
                if pending is not None:
                    flat = self.x_scatter(F, pending, lay2)
                    pending = None
                val = self.x_gather(F, dt, flat, L2, lay2)
                val.tok, val.pad = tok, pad2
            F.what += " %s %s layout %s" % (use, L2, lay2)
            if use.endswith("store"):
                self.x_store(F, val, tok, "%s of %s" % (use, z))
            elif use.endswith("op"):
                u = rng.choice(x_unaries(dt))
                self.x_store(F, self.x_unary(F, u, val),
                             "tlx_%s(%s)" % (u, tok), "%s %s of %s" % (
                                 use, u, z), short=True)
            if j == 0 or rng.random() < 0.5:
                got, exp = F.output(dt, N, "element reads of %s after %s" % (
                    z, use))
                F.B("for (int e = 0; e < %d; ++e) %s[e] = %s[e];" % (
                    N, got, z))
                F.R("memcpy(%s, %s, %d);" % (exp, flat, N * 4))
                reads += 1
        if pending is not None:
            flat = self.x_scatter(F, pending, list(range(r)))
        if not reads or rng.random() < 0.4:
            self.x_uses(F, XV(dt, L, None), z, vt, flat, False,
                        ["elem", "elem", "arg", "glob"], 1)
        F.finish()

    # -- runtime-strides .. runtime-loops -------------------------------------
    def x_size(self, F, v, const):
        """An extent or leading dim: a literal, or a volatile passed as a
        parameter (returns what the function writes)."""
        return str(v) if const else F.vint(v)[1]

    def x_rt_operand(self, F, dt, logical, layout, what, const=None,
                     restrict=True, ldp=None):
        """A tensor_load of logical extents `logical` stored with `layout`,
        extents constant or run-time (const: per storage dim), leading dims
        packed, constant or run-time, at an offset: (load expression,
        reference accessor of logical index expressions)."""
        rng = F.rng
        r = len(logical)
        sext = [logical[l] for l in layout]
        if const is None:
            c = all(e >= 1 for e in sext) and rng.random() < 0.4
            const = [c] * r
        # an op reading it has run-time extents (rs_gemm's long form)
        F.rt_extents = getattr(F, "rt_extents", False) or not all(const)
        ld = padded_lds(rng, sext)
        cld = rng.random() < 0.5
        st = strides_of(sext, ld)
        off = rng.choice([0, 0, 1, 3])
        a = F.input(dt, off + max(1, reach(sext, st)) + 1, restrict=restrict)
        shp = [self.x_size(F, e, const[i]) for i, e in enumerate(sext)]
        strs = ["0"] + ["0" if not ld[i] else self.x_size(F, ld[i], cld)
                        for i in range(1, r)]
        F.what += " %s %s%s%s" % (what, "x".join(map(str, logical)),
                                  " layout %s" % layout
                                  if layout != list(range(r)) else "",
                                  " lds %s" % ld[1:] if any(ld) else "")
        tok = "tensor_load(%s + %d, TLX_DIMS(%s), TLX_DIMS(%s), " \
            "TLX_ZEROS(%d), TLX_DIMS(%s))" % (
                a, off, ", ".join(shp), ", ".join(map(str, layout)), r,
                ", ".join(strs))

        def at(idx):
            return "%s[%s]" % (a, " + ".join(
                ["(%s) * %d" % (idx[layout[k]], st[k]) for k in range(r)] +
                [str(off)]))
        return tok, at

    # Operands with leading dims (packed, constant or run-time) and
    # constant or run-time extents - the four combinations - of every op
    # that takes run-time sizes: trees of them (runtime-strides,
    # construct_runtime_fused), GEMMs (runtime-strides-gemm: matmul, the
    # mma family; A, B and the accumulator row- or column-major; results
    # stored column-major or with a leading dim) and 2-D convolutions
    # (runtime-strides-conv: NCHW or channels-last inputs, OIHW or OHWI
    # kernels, strides and kernel dilations).
    def construct_runtime_strides(self, rng):
        return self.construct_runtime_fused(rng, strided=True)

    def construct_runtime_strides_gemm(self, rng):
        F = XFn(self, "runtime-strides-gemm", rng)
        F.what = "runtime-strides-gemm"
        self.rs_gemm(F)
        F.finish()

    def construct_runtime_strides_conv(self, rng):
        F = XFn(self, "runtime-strides-conv", rng)
        F.what = "runtime-strides-conv"
        self.rs_conv(F)
        F.finish()

    def rs_store(self, F, dt, L, expr, colmajor=False, long_sfx=None):
        """Stores the run-time result expr of logical extents L (2-D) with
        a leading dim (packed, constant or run-time), row- or
        column-major: returns the reference accessor of (i, j)."""
        rng = F.rng
        m, n = L
        sext = [n, m] if colmajor else [m, n]
        ld = sext[1] + rng.choice([0, 0, 1, 4])
        lds = "0" if ld == sext[1] and rng.random() < 0.5 else \
            self.x_size(F, ld, rng.random() < 0.5)
        off = rng.choice([0, 0, 2])
        got, exp = F.output(dt, off + ld * max(sext[0], 1) + 2,
                            "the result", restrict=True)
        if colmajor:
            ms, ns = F.vint(m)[1], F.vint(n)[1]
            expr = "tensor_typeinfo(%s, TLX_SHAPE(%s, %s), " \
                "TLX_LAYOUT(1, 0), TLX_ZEROS(2))" % (expr, ns, ms)
        F.B("tensor_store(%s + %d, %s, TLX_STRIDES(0, %s));" % (got, off,
                                                             expr, lds))
        F.what += " stored%s ld %d" % (" column-major" if colmajor else "",
                                       ld)
        if colmajor:
            return lambda i, j: "%s[%d + (%s) * %d + (%s)]" % (exp, off, j,
                                                                ld, i)
        return lambda i, j: "%s[%d + (%s) * %d + (%s)]" % (exp, off, i, ld, j)

    def rs_gemm(self, F):
        rng = F.rng
        op = rng.choice(["matmul", "matmul", "matmul_i32", "smma", "umma",
                         "usmma", "summa"])
        pick = lambda: rng.choice([rng.randint(1, 12), rng.randint(1, 40),
                                   rng.randint(0, 3)])
        m, n, k = pick(), pick(), pick()
        ta, tb = {"matmul": ("f32", "f32"), "matmul_i32": ("i32", "i32"),
                  "smma": ("i8", "i8"), "umma": ("u8", "u8"),
                  "usmma": ("u8", "i8"), "summa": ("i8", "u8")}[op]
        dt = "f32" if op == "matmul" else "i32"
        F.what += " " + op
        F.rt_extents = False
        cola, colb = rng.random() < 0.35, rng.random() < 0.35
        ea, aat = self.x_rt_operand(F, ta, [m, k], [1, 0] if cola else
                                    [0, 1], "A")
        eb, bat = self.x_rt_operand(F, tb, [k, n], [1, 0] if colb else
                                    [0, 1], "B")
        opn = op.split("_")[0]
        if op.startswith("matmul"):
            args, acc0 = "%s, %s" % (ea, eb), "0"
        else:
            colc = rng.random() < 0.35
            ec, cat = self.x_rt_operand(F, "i32", [m, n], [1, 0] if colc else
                                        [0, 1], "acc")
            args = "%s, %s, %s" % (ec, ea, eb)
            acc0 = "(uint32_t)" + cat(["i", "j"])
        relu = rng.random() < 0.3
        # The long form names a result of run-time extents with a small
        # vector type: only when an operand has run-time extents (run-time
        # leading dims alone leave the product's extents constant).
        colr = rng.random() < 0.25 and F.rt_extents
        sfx = "rtf32" if dt == "f32" else "rti32"
        if colr:
            # the long form: a column-major result typeinfo
            v = F.uid("r")
            F.B("%s %s = %s;" % (
                "tlx_float_result_t" if dt == "f32" else "tlx_int32_result_t",
                v, "tensor_relu_%s(tlx_%s(%s))" % (sfx, opn, args) if relu
                else "tensor_%s_%s(%s)" % (opn, sfx, args)))
            call = v
        else:
            call = "tlx_%s(%s)" % (opn, args)
            if relu:
                call = "tlx_relu(%s)" % call
        if relu:
            F.what += " relu"
        at = self.rs_store(F, dt, [m, n], call, colr)
        uns = {"umma": (1, 1), "usmma": (1, 0), "summa": (0, 1)}.get(op,
                                                                    (0, 0))

        def ext(e, u):
            return "(uint32_t)(uint8_t)%s" % e if u else "(uint32_t)%s" % e
        if dt == "f32":
            body = "float s = 0.0f; for (int p = 0; p < %d; p++) s = s + " \
                "%s * %s;" % (k, aat(["i", "p"]), bat(["p", "j"]))
        else:
            body = "uint32_t s = %s; for (int p = 0; p < %d; p++) s += " \
                "%s * %s;" % (acc0 if acc0 != "0" else "0u", k,
                             ext(aat(["i", "p"]), uns[0]),
                             ext(bat(["p", "j"]), uns[1]))
        res = "s" if dt == "f32" else "(int32_t)s"
        if relu:
            res = "(%s > 0 ? %s : 0)" % (res, res)
        F.R("for (int i = 0; i < %d; i++) for (int j = 0; j < %d; j++) { %s "
            "%s = %s; }" % (m, n, body, at("i", "j"), res))

    def rs_conv(self, F):
        rng = F.rng
        dt = rng.choice(["f32", "i32"])
        nb, c, o = rng.choice([1, 1, 2]), rng.choice([0, 1, 2, 3, 4, 4]), \
            rng.randint(1, 4)
        kh, kw = rng.randint(1, 3), rng.randint(1, 3)
        sh, sw = rng.randint(1, 3), rng.randint(1, 3)
        dh, dw = rng.choice([1, 1, 2]), rng.choice([1, 1, 2])
        h = (kh - 1) * dh + 1 + rng.randint(0, 6)
        w = (kw - 1) * dw + 1 + rng.randint(0, 6)
        oh = (h - (kh - 1) * dh - 1) // sh + 1
        ow = (w - (kw - 1) * dw - 1) // sw + 1
        xl = [0, 2, 3, 1] if rng.random() < 0.5 else [0, 1, 2, 3]
        wl = [0, 2, 3, 1] if rng.random() < 0.5 else [0, 1, 2, 3]
        F.what += " %s in %dx%dx%dx%d kernel %dx%dx%dx%d strides %d,%d " \
            "dilations %d,%d" % (dt, nb, c, h, w, o, c, kh, kw, sh, sw, dh, dw)
        cx = all(e >= 1 for e in [nb, c, h, w]) and rng.random() < 0.4
        ex, xat = self.x_rt_operand(F, dt, [nb, c, h, w], xl, "input",
                                    [cx] * 4)
        # the kernel's taps are constant extents
        cw = c >= 1 and rng.random() < 0.4
        ew, wat = self.x_rt_operand(F, dt, [o, c, kh, kw], wl, "kernel",
                                    [cw or wl[i] in (2, 3) for i in range(4)])
        call = "tlx_convolution(%s, %s, TLX_DIMS(%d, %d), TLX_DIMS(1, 1), " \
            "TLX_DIMS(%d, %d))" % (ex, ew, sh, sw, dh, dw)
        relu = rng.random() < 0.3
        if relu:
            call = "tlx_relu(%s)" % call
        n = nb * o * oh * ow
        got, exp = F.output(dt, n + 2, "the result", restrict=True)
        F.B("TLX_STORE(%s, %s);" % (got, call))
        acc = "float s = 0.0f" if dt == "f32" else "uint32_t s = 0u"
        prd = "s = s + %s * %s" if dt == "f32" else \
            "s += (uint32_t)%s * (uint32_t)%s"
        res = "s" if dt == "f32" else "(int32_t)s"
        if relu:
            res = "(%s > 0 ? %s : 0)" % (res, res)
        F.R("for (int n = 0; n < %d; n++) for (int o = 0; o < %d; o++) for "
            "(int y = 0; y < %d; y++) for (int x = 0; x < %d; x++) { %s; for "
            "(int c = 0; c < %d; c++) for (int u = 0; u < %d; u++) for (int v "
            "= 0; v < %d; v++) %s; %s[((n * %d + o) * %d + y) * %d + x] = %s; "
            "}" % (nb, o, oh, ow, acc, c, kh, kw, prd % (
                xat(["n", "c", "y * %d + u * %d" % (sh, dh),
                     "x * %d + v * %d" % (sw, dw)]),
                wat(["o", "c", "u", "v"])), exp, o, oh, ow, res))

    def construct_runtime_interleaved(self, rng):
        """Stores unrelated to a run-time-sized result - C stores and
        TLX_STOREs to other (restrict) pointers - between the op and its
        typeinfo, and between the typeinfo and its readers."""
        F = XFn(self, "runtime-interleaved", rng)
        restrict = rng.random() < 0.7
        dt = rng.choice(["f32", "f32", "i32"])
        ct = CT[dt]
        rtt = "tlx_float_result_t" if dt == "f32" else "tlx_int32_result_t"
        sfx = "rtf32" if dt == "f32" else "rti32"
        ops = x_unaries(dt) + ["transpose", "pad", "matmul", "reduce"]
        op = rng.choice(ops)
        # (a reduce window of 1 row needs a row: it must fit the extent)
        m, n = rng.randint(1 if op == "reduce" else 0, 9), rng.randint(1, 9)
        ms, ns = F.vint(m)[1], F.vint(n)[1]
        a = F.input(dt, m * n + 1, restrict=restrict)
        tok = "tensor_load(%s, TLX_SHAPE(%s, %s), TLX_LAYOUT(0, 1), " \
            "TLX_ZEROS(2), TLX_ZEROS(2))" % (a, ms, ns)
        F.what = "runtime-interleaved %s %s %dx%d%s" % (
            op, dt, m, n, "" if restrict else " (no restrict)")
        ref = F.decl(ct, max(1, m * n))
        F.R("memcpy(%s, %s, sizeof %s);" % (ref, a, ref))
        out = F.decl(ct, 400)
        if op in XUNARY_C:
            L, call = [m, n], "tensor_%s_%s(%s)" % (op, sfx, tok)
            F.R("for (int i = 0; i < %d; i++) { %s v = %s[i]; %s[i] = %s; }" %
                (m * n, ct, ref, out, XUNARY_C[op]))
            shape = [ms, ns]
        elif op == "transpose":
            L, call = [n, m], "tensor_transpose_%s(%s)" % (sfx, tok)
            F.R("for (int i = 0; i < %d; i++) for (int j = 0; j < %d; j++) "
                "%s[i * %d + j] = %s[j * %d + i];" % (n, m, out, m, ref, n))
            shape = [ns, ms]
        elif op == "pad":
            lo, hi = rng.randint(0, 2), rng.randint(0, 2)
            L = [m + lo + hi, n]
            lv = F.vint(lo)[1]
            call = "tensor_pad_%s(%s, TLX_DIMS(%s, 0), TLX_DIMS(%d, 0), " \
                "(%s)3)" % (sfx, tok, lv, hi, ct)
            inside = "i >= %d && i < %d" % (lo, lo + m) if m else "0"
            F.R("for (int i = 0; i < %d; i++) for (int j = 0; j < %d; j++) "
                "%s[i * %d + j] = %s ? %s[(i - %d) * %d + j] : (%s)3;" % (
                    L[0], n, out, n, inside, ref, lo, n, ct))
            shape = ["%s + %s + %d" % (ms, lv, hi), ns]
        elif op == "matmul":
            k = rng.randint(0, 6)
            b = F.input(dt, n * k + 1, restrict=restrict)
            ks = F.vint(k)[1]
            L = [m, k]
            call = "tensor_matmul_%s(%s, tensor_load(%s, TLX_SHAPE(%s, %s), " \
                "TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2)))" % (
                    sfx, tok, b, ns, ks)
            if dt == "f32":
                F.R("for (int i = 0; i < %d; i++) for (int j = 0; j < %d; "
                    "j++) { float s = 0.0f; for (int p = 0; p < %d; p++) s = "
                    "s + %s[i * %d + p] * %s[p * %d + j]; %s[i * %d + j] = s; "
                    "}" % (m, k, n, ref, n, b, k, out, k))
            else:
                F.R("for (int i = 0; i < %d; i++) for (int j = 0; j < %d; "
                    "j++) { uint32_t s = 0u; for (int p = 0; p < %d; p++) s "
                    "+= (uint32_t)%s[i * %d + p] * (uint32_t)%s[p * %d + j]; "
                    "%s[i * %d + j] = (int32_t)s; }" % (m, k, n, ref, n, b, k,
                                                         out, k))
            shape = [ms, ks]
        else:
            L = [m, 1]
            call = "tensor_reduce_max_%s(%s, TLX_DIMS(1, %s), TLX_DIMS(1, " \
                "1))" % (sfx, tok, ns)
            F.R("for (int i = 0; i < %d; i++) { %s x = %s[i * %d]; for (int "
                "j = 1; j < %d; j++) x = %s[i * %d + j] > x ? %s[i * %d + j] "
                ": x; %s[i] = x; }" % (m, ct, ref, n, n, ref, n, ref, n, out))
            shape = [ms, "1"]
        r = F.uid("r")
        F.B("%s %s = %s;" % (rtt, r, call))

        def interleave():
            for _ in range(rng.randint(1, 2)):
                c = rng.random()
                if c < 0.35:
                    got, exp = F.output(dt, 5, "an unrelated C store",
                                        restrict=restrict)
                    j, x = rng.randrange(5), self.x_lit(F, dt)
                    F.B("%s[%d] = %s;" % (got, j, x))
                    F.R("%s[%d] = %s;" % (exp, j, x))
                elif c < 0.55:
                    cnt = rng.randint(1, 12)
                    got, exp = F.output(dt, cnt + 1, "unrelated C stores",
                                        restrict=restrict)
                    cs = self.x_size(F, cnt, rng.random() < 0.5)
                    F.B("for (int i = 0; i < %s; i++) %s[i] = (%s)(i %% 5);" %
                        (cs, got, ct))
                    F.R("for (int i = 0; i < %d; i++) %s[i] = (%s)(i %% 5);" %
                        (cnt, exp, ct))
                else:
                    p, q = rng.randint(0, 6), rng.randint(1, 6)
                    src = F.input(dt, p * q + 1, restrict=restrict)
                    got, exp = F.output(dt, p * q + 1, "an unrelated "
                                        "TLX_STORE", restrict=restrict)
                    ps = self.x_size(F, p, p >= 1 and rng.random() < 0.5)
                    qs = self.x_size(F, q, rng.random() < 0.5)
                    if rng.random() < 0.5:
                        F.B("TLX_STORE(%s, TLX_LOAD(%s, %s, %s));" % (
                            got, src, ps, qs))
                        F.R("memcpy(%s, %s, %d);" % (exp, src, p * q * 4))
                    else:
                        u = rng.choice(x_unaries(dt))
                        F.B("TLX_STORE(%s, tlx_%s(TLX_LOAD(%s, %s, %s)));" % (
                            got, u, src, ps, qs))
                        F.R("for (int i = 0; i < %d; i++) { %s v = %s[i]; "
                            "%s[i] = %s; }" % (p * q, ct, src, exp,
                                               XUNARY_C[u]))
        interleave()
        tr = F.uid("t")
        F.B("tlx_token_t %s = tensor_typeinfo(%s, TLX_SHAPE(%s), "
            "TLX_LAYOUT(0, 1), TLX_ZEROS(2));" % (tr, r, ", ".join(shape)))
        if rng.random() < 0.7:
            interleave()
        nr = prod(L)
        got, exp = F.output(dt, nr + 1, "the result", restrict=restrict)
        F.B("TLX_STORE(%s, %s);" % (got, tr))
        F.R("memcpy(%s, %s, %d);" % (exp, out, nr * 4))
        if rng.random() < 0.4:
            interleave()
            u = rng.choice(x_unaries(dt))
            got, exp = F.output(dt, nr + 1, "%s of the result" % u,
                                restrict=restrict)
            F.B("TLX_STORE(%s, tlx_%s(%s));" % (got, u, tr))
            F.R("for (int i = 0; i < %d; i++) { %s v = %s[i]; %s[i] = %s; }" %
                (nr, ct, out, exp, XUNARY_C[u]))
        F.finish()

    def construct_runtime_select(self, rng):
        """?: of run-time-sized results (ext_vector_type vectors) whose
        other operand is a C variable, or a literal: `r <= q ? r : s`."""
        F = XFn(self, "runtime-select", rng)
        dt = rng.choice(["f32", "f32", "i32"])
        ct = CT[dt]
        vt, sfx = F.vtype(dt, 4, ext=True)
        m, n = rng.randint(0, 8), rng.randint(1, 8)
        ms, ns = F.vint(m)[1], F.vint(n)[1]
        shape = "TLX_SHAPE(%s, %s), TLX_LAYOUT(0, 1), TLX_ZEROS(2)" % (ms, ns)
        names = []
        for _ in range(2):
            a = F.input(dt, m * n + 1, restrict=True)
            u = rng.choice(x_unaries(dt))
            v, ref = F.uid("r"), F.decl(ct, max(1, m * n))
            F.B("%s %s = tensor_%s_%s(tensor_load(%s, %s, TLX_ZEROS(2)));" % (
                vt, v, u, sfx, a, shape))
            if rng.random() < 0.8:
                F.B("tensor_typeinfo(%s, %s);" % (v, shape))
            F.R("for (int i = 0; i < %d; i++) { %s v = %s[i]; %s[i] = %s; }" %
                (m * n, ct, a, ref, XUNARY_C[u]))
            names.append((v, ref))
        (r, rr), (q, qr) = names

        def scalar():
            x = rng.randint(-8, 8) / 4.0 if dt == "f32" else \
                rng.randint(-9, 9)
            if rng.random() < 0.25:
                lit = cfloat(x) if dt == "f32" else str(x)
                return lit, lit
            if dt == "f32":
                g, p = F.vfloat(x)
            else:
                g, p = F.vint(x)
            return g, p
        form = rng.choice(["rq-r-s", "rq-r-s", "rs-r-q", "rq-s-t", "sum"])
        (sg, sp), (tg, tp) = scalar(), scalar()
        cmp = rng.choice(["<=", "<", ">", ">="])
        if form == "rq-r-s":
            e = "%s %s %s ? %s : %s" % (r, cmp, q, r, sp)
            re = "a %s b ? a : %s" % (cmp, sg)
        elif form == "rs-r-q":
            e = "%s %s %s ? %s : %s" % (r, cmp, sp, r, q)
            re = "a %s %s ? a : b" % (cmp, sg)
        elif form == "rq-s-t":
            e = "%s %s %s ? %s : %s" % (r, cmp, q, sp, tp)
            re = "a %s b ? %s : %s" % (cmp, sg, tg)
        else:
            e = "(%s %s %s ? %s : %s) + %s" % (r, cmp, q, r, sp, q)
            re = "(a %s b ? a : %s) + b" % (cmp, sg)
            if dt == "i32":
                re = "(int32_t)((uint32_t)(a %s b ? a : %s) + (uint32_t)b)" % (
                    cmp, sg)
        F.what = "runtime-select %s %dx%d: %s" % (dt, m, n, e)
        z = F.uid("z")
        F.B("%s %s = %s;" % (vt, z, e))
        got, exp = F.output(dt, m * n + 1, "the result", restrict=True)
        F.B("TLX_STORE(%s, tensor_typeinfo(%s, %s));" % (got, z, shape))
        F.R("for (int i = 0; i < %d; i++) { %s a = %s[i], b = %s[i]; %s[i] = "
            "%s; }" % (m * n, ct, rr, qr, exp, re))
        F.finish()

    def construct_runtime_mixed(self, rng):
        """GEMMs of an operand with run-time extents and one with constant
        extents, transposed or not: tlx_matmul(a, tlx_transpose(b))."""
        F = XFn(self, "runtime-mixed", rng)
        dt = rng.choice(["f32", "i32"])
        ct = CT[dt]
        m, n, k = rng.randint(0, 12), rng.randint(1, 9), rng.randint(1, 9)
        form = rng.choice(["a-tb", "a-tb", "ta-b", "a-b"])
        rt_a = rng.random() < 0.7
        F.what = "runtime-mixed %s %s %dx%dx%d, %s run-time" % (
            form, dt, m, n, k, "A" if rt_a else "B")
        if not rt_a:
            m = max(m, 1)

        def size(v, rt):
            return F.vint(v)[1] if rt else str(v)
        a, b = F.input(dt, m * k + 1, restrict=True), \
            F.input(dt, n * k + 1, restrict=True)
        if form == "ta-b":
            ea = "tlx_transpose(TLX_LOAD(%s, %s, %s))" % (
                a, size(k, False), size(m, rt_a))
            ai = "%s[p * %d + i]" % (a, m)
        else:
            ea = "TLX_LOAD(%s, %s, %s)" % (a, size(m, rt_a), size(k, False))
            ai = "%s[i * %d + p]" % (a, k)
        if form == "a-tb":
            eb = "tlx_transpose(TLX_LOAD(%s, %s, %s))" % (
                b, size(n, not rt_a), size(k, False))
            bi = "%s[j * %d + p]" % (b, k)
        else:
            eb = "TLX_LOAD(%s, %s, %s)" % (b, size(k, False),
                                           size(n, not rt_a))
            bi = "%s[p * %d + j]" % (b, n)
        call = "tlx_matmul(%s, %s)" % (ea, eb)
        relu = rng.random() < 0.3
        if relu:
            call = "tlx_relu(%s)" % call
        got, exp = F.output(dt, m * n + 1, "the result", restrict=True)
        F.B("TLX_STORE(%s, %s);" % (got, call))
        body = ("float s = 0.0f; for (int p = 0; p < %d; p++) s = s + %s * %s;"
                if dt == "f32" else "uint32_t s = 0u; for (int p = 0; p < %d; "
                "p++) s += (uint32_t)%s * (uint32_t)%s;") % (k, ai, bi)
        res = "s" if dt == "f32" else "(int32_t)s"
        if relu:
            res = "(%s > 0 ? %s : 0)" % (res, res)
        F.R("for (int i = 0; i < %d; i++) for (int j = 0; j < %d; j++) { %s "
            "%s[i * %d + j] = %s; }" % (m, n, body, exp, n, res))
        F.finish()

    def construct_short_elementwise(self, rng):
        """The short form's elementwise arithmetic (tlx_add .. tlx_min):
        a tree over loads that broadcast to the result's shape and C
        scalars, against a reference that evaluates the tree element by
        element, one operation per statement (no contraction)."""
        F = XFn(self, "short-elementwise", rng)
        dt = rng.choice(["f32", "f32", "i32"])
        ct = CT[dt]
        rank = rng.randint(1, 3)
        ext = [rng.choice([1, 2, 3, 4, 5, 8, 17]) for _ in range(rank)]
        rt = rng.random() < 0.5
        size = [F.vint(e)[1] if rt else str(e) for e in ext]
        temps = []
        check = len(self.checks)
        got, exp = F.output(dt, prod(ext), "the result", restrict=True)
        # In place: the result stored over a full-shape operand (x = x + f).
        inplace = [rng.random() < 0.25]

        def temp(expr):
            t = "t%d" % len(temps)
            temps.append("%s %s = %s;" % (ct, t, expr))
            return t

        def leaf():
            """A load broadcast to ext: (TLX expression, reference value)."""
            r = rng.randint(1, rank)
            dims = [d for d in range(rank - r, rank)]
            lext = [1 if rng.random() < 0.3 else ext[d] for d in dims]
            a = F.input(dt, prod(lext), restrict=True)
            sz = ", ".join("1" if e == 1 else size[d]
                           for d, e in zip(dims, lext))
            idx = ["0" if e == 1 else "i%d" % d for d, e in zip(dims, lext)]
            shapes.append([1] * (rank - r) + lext)
            src = a
            if inplace[0] and r == rank and lext == ext:
                # got starts as a copy of a and is read where it is written.
                F.B("memcpy(%s, %s, sizeof(%s) * %d);" % (got, a, ct,
                                                          prod(ext)))
                src, inplace[0] = got, False
            return "TLX_LOAD(%s, %s)" % (src, sz), \
                "%s[%s]" % (a, rmi(lext, idx))

        def scalar(nonzero=False):
            if dt == "f32":
                x = rng.choice([0.5, -2.0, 4.0, 1.25] if nonzero else
                               [0.0, 0.5, -1.5, 3.0, 0.25])
                if rng.random() < 0.5:
                    return cfloat(x), cfloat(x)
                g, p = F.vfloat(x)
            else:
                x = rng.choice([2, -3, 5, 7] if nonzero else [0, 1, -4, 9])
                if rng.random() < 0.5:
                    return str(x), str(x)
                g, p = F.vint(x)
            return p, g

        def binary(op, a, b):
            """Reference of one node, int32 wrapping as TLX computes."""
            if op == "max":
                return temp("%s > %s ? %s : %s" % (a, b, a, b))
            if op == "min":
                return temp("%s < %s ? %s : %s" % (a, b, a, b))
            c = {"add": "+", "sub": "-", "mul": "*", "div": "/"}[op]
            if dt == "i32" and op != "div":
                return temp("(int32_t)((uint32_t)%s %s (uint32_t)%s)" % (
                    a, c, b))
            return temp("%s %s %s" % (a, c, b))

        def node(depth):
            """(TLX expression, reference temporary, True): a tensor."""
            if depth == 0 or rng.random() < 0.3:
                e, r = leaf()
                return e, temp(r), True
            op = rng.choice(["add", "sub", "mul", "div", "max", "min"])
            le, lr, _ = node(depth - 1)
            if op == "div" and (dt == "i32" or rng.random() < 0.6):
                re_, rr = scalar(nonzero=True)
            elif op == "div":  # a divisor that is never 0: x*x + 1
                re_, rr, _ = node(depth - 1)
                re_ = "tlx_add(tlx_mul(%s, %s), 1.0f)" % (re_, re_)
                rr = binary("add", binary("mul", rr, rr), "1.0f")
            elif rng.random() < 0.35:
                re_, rr = scalar()
            else:
                re_, rr, _ = node(depth - 1)
            if op != "div" and rng.random() < 0.3:  # the scalar first
                le, lr, re_, rr = re_, rr, le, lr
            e = "tlx_%s(%s, %s)" % (op, le, re_)
            r = binary(op, lr, rr)
            if rng.random() < 0.15:
                e = "tlx_relu(%s)" % e
                r = temp("%s > 0 ? %s : 0" % (r, r))
            return e, r, True

        shapes = []
        e, r, _ = node(rng.randint(1, 3))
        if [max(d) for d in zip(*shapes)] != ext:
            # No leaf spans some dim: one that spans all of them does.
            full = F.input(dt, prod(ext), restrict=True)
            e = "tlx_add(%s, TLX_LOAD(%s, %s))" % (e, full, ", ".join(size))
            r = binary("add", r, "%s[%s]" % (
                full, rmi(ext, ["i%d" % d for d in range(rank)])))
        if rng.random() < 0.3:  # a result used twice
            u = F.uid("u")
            F.B("tlx_token_t %s = %s;" % (u, e))
            op = rng.choice(["add", "mul", "max", "sub"])
            e, r = "tlx_%s(%s, %s)" % (op, u, u), binary(op, r, r)
        F.what = "short-elementwise %s %s%s: %s" % (
            dt, "x".join(map(str, ext)), " run-time" if rt else "", e)
        self.checks[check] = ("%s: the result" % F.what,) + \
            self.checks[check][1:]
        F.B("TLX_STORE(%s, %s);" % (got, e))
        F.loops(ext, "{ %s %s[%s] = %s; }" % (
            " ".join(temps), exp, rmi(ext, ["i%d" % d for d in
                                            range(rank)]), r))
        F.finish()

    def construct_short_scalar(self, rng):
        """TLX_SCALAR: a full reduction (of a load, or of its square) read
        as a C value, used in C arithmetic and, when exact, a branch;
        against a plain C loop (float sums within a bound: TLX
        reassociates them)."""
        F = XFn(self, "short-scalar", rng)
        dt = rng.choice(["f32", "i32"])
        ct = CT[dt]
        n = rng.choice([1, 2, 3, 7, 8, 17, 33, 64])
        rt = rng.random() < 0.5
        ns = F.vint(n)[1] if rt else str(n)
        op = rng.choice(["add", "max", "min"])
        square = rng.random() < 0.4
        a = F.input(dt, n, restrict=True)
        F.what = "short-scalar %s reduce_%s%s of %d%s" % (
            dt, op, " of squares" if square else "", n,
            " run-time" if rt else "")
        check = len(self.checks)
        got, exp = F.output(dt, 2, "the scalar and its use", restrict=True)
        leaf = "TLX_LOAD(%s, %s)" % (a, ns)
        if square:
            leaf = "tlx_mul(%s, %s)" % (leaf, leaf)
        v = F.uid("s")
        F.B("%s %s = TLX_SCALAR(%s, tlx_reduce_%s(%s, TLX_DIMS(%s), "
            "TLX_DIMS(%s)));" % (ct, v, ct, op, leaf, ns, ns))
        F.B("%s[0] = %s;" % (got, v))
        exact = dt == "i32" or op != "add"
        use = ("%s > 0 ? %s - 1 : %s + 1" if exact else "%s * 0.5f + 1")
        F.B("%s[1] = %s;" % (got, use.replace("%s", v)))
        if dt == "i32":
            elem = "(int32_t)((uint32_t)%s[i] * (uint32_t)%s[i])" % (a, a) \
                if square else "%s[i]" % a
            step = {"add": "acc = (int32_t)((uint32_t)acc + (uint32_t)e);",
                    "max": "acc = e > acc ? e : acc;",
                    "min": "acc = e < acc ? e : acc;"}[op]
        else:
            elem = "%s[i] * %s[i]" % (a, a) if square else "%s[i]" % a
            step = {"add": "acc += e;", "max": "acc = e > acc ? e : acc;",
                    "min": "acc = e < acc ? e : acc;"}[op]
        init = "0" if op == "add" else "%s" % elem.replace("[i]", "[0]")
        F.R("{ %s acc = %s; for (int i = %d; i < %d; i++) { %s e = %s; %s }"
            " %s[0] = acc; %s[1] = %s; }" % (
                ct, init, 0 if op == "add" else 1, n, ct, elem, step, exp,
                exp, use.replace("%s", "acc")))
        if not exact:
            self.checks[check] = self.checks[check][:5] + (1e-3, 1e-4)
        F.finish()

    def construct_runtime_loops(self, rng):
        """Short-form run-time-sized tokens carried by loops: layers
        h = tlx_relu(tlx_matmul(h, TLX_LOAD(W + l*d*d, d, d))), unary
        chains, mma accumulators over k-blocks (docs/ops.md calls merging
        run-time-sized tokens across control flow an error today)."""
        F = XFn(self, "runtime-loops", rng)
        kind = rng.choice(["layers", "layers", "unary", "mma"])
        dt = "i32" if kind == "mma" or rng.random() < 0.5 else "f32"
        ct = CT[dt]
        m, d = rng.randint(0, 8), rng.randint(1, 5 if dt == "f32" else 9)
        nl = rng.randint(0, 3)
        F.what = "runtime-loops %s %s %dx%d, %d iterations" % (kind, dt, m, d,
                                                              nl)
        ms, ds = F.vint(m)[1], F.vint(d)[1]
        lg, lp = F.vint(nl)
        h = F.uid("h")
        cur, tmp = F.decl(ct, max(1, m * d)), F.decl(ct, max(1, m * d))
        if kind == "mma":
            op = rng.choice(list(MMA))
            ta, tb = {"umma": ("u8", "u8"), "smma": ("i8", "i8"),
                      "usmma": ("u8", "i8"), "summa": ("i8", "u8")}[op]
            kb = rng.randint(1, 5)
            kbs = F.vint(kb)[1]
            A = F.input(ta, m * kb * 3 + 1, restrict=True)
            B = F.input(tb, kb * 3 * d + 1, restrict=True)
            ua = "(uint32_t)(uint8_t)" if ta == "u8" else "(uint32_t)"
            ub = "(uint32_t)(uint8_t)" if tb == "u8" else "(uint32_t)"
            if rng.random() < 0.35:
                # A C scalar accumulator: tlx_smma(v, a, b), int32 sums.
                v = rng.choice([0, 0, 7, -3])
                vs = str(v) if rng.random() < 0.5 else F.vint(v)[1]
                A0 = F.input(ta, m * kb + 1, restrict=True)
                B0 = F.input(tb, kb * d + 1, restrict=True)
                F.what += ", scalar accumulator %d" % v
                F.B("tlx_token_t %s = tlx_%s(%s, TLX_LOAD(%s, %s, %s), "
                    "TLX_LOAD(%s, %s, %s));" % (h, op, vs, A0, ms, kbs, B0,
                                                kbs, ds))
                F.R("for (int i = 0; i < %d; i++) for (int j = 0; j < %d; "
                    "j++) { uint32_t s = (uint32_t)%d; for (int p = 0; p < "
                    "%d; p++) s += %s%s[i * %d + p] * %s%s[p * %d + j]; "
                    "%s[i * %d + j] = (int32_t)s; }" % (
                        m, d, v, kb, ua, A0, kb, ub, B0, d, cur, d))
            else:
                C = F.input("i32", m * d + 1, restrict=True)
                F.B("tlx_token_t %s = TLX_LOAD(%s, %s, %s);" % (h, C, ms,
                                                                 ds))
                F.R("memcpy(%s, %s, sizeof %s);" % (cur, C, cur))
            F.B("for (int l = 0; l < %s; l++)" % lp)
            F.B("  %s = tlx_%s(%s, tensor_load(%s + l * %s, TLX_SHAPE(%s, %s),"
                " TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_STRIDES(0, 3 * %s)), "
                "TLX_LOAD(%s + l * %s * %s, %s, %s));" % (
                    h, op, h, A, kbs, ms, kbs, kbs, B, kbs, ds, kbs, ds))
            F.R("for (int l = 0; l < %s; l++) for (int i = 0; i < %d; i++) "
                "for (int j = 0; j < %d; j++) { uint32_t s = (uint32_t)%s[i * "
                "%d + j]; for (int p = 0; p < %d; p++) s += %s%s[i * %d + l * "
                "%d + p] * %s%s[(l * %d + p) * %d + j]; %s[i * %d + j] = "
                "(int32_t)s; }" % (lg, m, d, cur, d, kb, ua, A, 3 * kb, kb, ub,
                                   B, kb, d, cur, d))
        else:
            x = F.input(dt, m * d + 1, restrict=True)
            F.B("tlx_token_t %s = TLX_LOAD(%s, %s, %s);" % (h, x, ms, ds))
            F.R("memcpy(%s, %s, sizeof %s);" % (cur, x, cur))
            if kind == "unary":
                u = rng.choice(x_unaries(dt))
                F.B("for (int l = 0; l < %s; l++) %s = tlx_%s(%s);" % (
                    lp, h, u, h))
                F.R("for (int l = 0; l < %s; l++) for (int i = 0; i < %d; "
                    "i++) { %s v = %s[i]; %s[i] = %s; }" % (
                        lg, m * d, ct, cur, cur, XUNARY_C[u]))
            else:
                W = F.input(dt, 3 * d * d + 1, restrict=True)
                F.B("for (int l = 0; l < %s; l++)" % lp)
                F.B("  %s = tlx_relu(tlx_matmul(%s, TLX_LOAD(%s + l * %s * "
                    "%s, %s, %s)));" % (h, h, W, ds, ds, ds, ds))
                if dt == "f32":
                    s0, acc = "float s = 0.0f", "s = s + %s[i * %d + p] * " \
                        "%s[l * %d + p * %d + j]"
                    fin = "s > 0 ? s : 0"
                else:
                    s0 = "uint32_t s = 0u"
                    acc = "s += (uint32_t)%s[i * %d + p] * " \
                        "(uint32_t)%s[l * %d + p * %d + j]"
                    fin = "(int32_t)s > 0 ? (int32_t)s : 0"
                F.R("for (int l = 0; l < %s; l++) { for (int i = 0; i < %d; "
                    "i++) for (int j = 0; j < %d; j++) { %s; for (int p = 0; "
                    "p < %d; p++) %s; %s[i * %d + j] = %s; } memcpy(%s, %s, "
                    "sizeof %s); }" % (lg, m, d, s0, d, acc % (
                        cur, d, W, d * d, d), tmp, d, fin, cur, tmp, cur))
        got, exp = F.output(dt, m * d + 1, "the carried token",
                            restrict=True)
        F.B("TLX_STORE(%s, %s);" % (got, h))
        F.R("memcpy(%s, %s, %d);" % (exp, cur, m * d * 4))
        F.finish()

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


# --------------------------------------------------------------------------
# The constructs of the features merge-typeinfo, loop-carry, elem-after-use
# and runtime-strides .. runtime-loops: each is one noinline function of the
# TLX half (with its own vector types and op declarations), called from the
# case with arrays declared in the case; the case computes the expected
# values first, with plain C loops of its own.

CT = {"f32": "float", "i32": "int32_t", "i8": "int8_t", "u8": "uint8_t"}
FILL = {"f32": "TLXP_F32", "i32": "TLXP_I32", "i8": "TLXP_I8",
        "u8": "TLXP_I8"}
XUNARY_C = {"relu": "v > 0 ? v : 0", "fabs": "fabsf(v)",
            "floor": "floorf(v)", "ceil": "ceilf(v)"}


def x_unaries(dt):
    return ["relu", "fabs", "floor", "ceil"] if dt == "f32" else ["relu"]


def rmi(ext, idx):
    """Row-major offset of index names idx in extents ext."""
    return lin(idx, rm_strides(ext))


def fli(logical, layout, idx, blas=None, off=0):
    """Offset of logical index names idx in a tensor of logical extents
    `logical` stored with `layout` (and BLAS leading dims blas)."""
    shape = [logical[l] for l in layout]
    st = elem_strides(shape, blas or [0] * len(shape))
    return lin([idx[layout[k]] for k in range(len(layout))], st, off)


def x_perm(rng, r, ident=0.2):
    p = list(range(r))
    if r > 1 and rng.random() >= ident:
        while p == list(range(r)):
            rng.shuffle(p)
    return p


def x_pad(rng, r):
    if rng.random() < 0.35:
        return [rng.choice([0, 1, 3]) for _ in range(r)]
    return [0] * r


def x_shape(rng, r, cap, lo=1, hi=9, nmin=1):
    for _ in range(200):
        s = [rng.randint(lo, hi) for _ in range(r)]
        if nmin <= prod(s) <= cap:
            return s
    return [rng.randint(lo, 2) for _ in range(r)]


def x_factor(rng, n, r):
    """A random shape of rank r with n elements."""
    out = []
    rest = n
    for _ in range(r - 1):
        divs = [d for d in range(1, rest + 1) if rest % d == 0]
        d = rng.choice(divs)
        out.append(d)
        rest //= d
    out.append(rest)
    rng.shuffle(out)
    return out


def x_blas(rng, shape, p=0.5):
    """BLAS leading dims of storage extents shape: 0 (packed), explicitly
    packed, or a few more."""
    r = len(shape)
    blas = [0] * r
    if r == 1 or rng.random() >= p:
        return blas
    inner = 1
    for i in range(r - 1, 0, -1):
        packed = shape[i] * inner
        c = rng.random()
        if c < 0.3:
            inner = packed
        else:
            blas[i] = packed + (0 if c < 0.45 else rng.randint(1, 3))
            inner = blas[i]
    return blas


class XV:
    """A tensor of a construct: its reference (logical row-major), token,
    storage layout and padding."""

    def __init__(self, dt, logical, ref, tok=None, layout=None, pad=None):
        self.dt, self.logical, self.ref, self.tok = dt, list(logical), ref, tok
        self.layout = layout if layout is not None else \
            list(range(len(logical)))
        self.pad = pad if pad is not None else [0] * len(logical)

    @property
    def n(self):
        return prod(self.logical)

    @property
    def shape(self):
        return [self.logical[l] for l in self.layout]


class XFn:
    """One construct's noinline function, its arrays, volatiles and
    reference."""

    def __init__(self, p, tag, rng):
        self.p, self.rng, self.tag = p, rng, tag
        k = "%d_%d" % (p.index, p.nfn)
        p.nfn += 1
        self.name = "tlxp_%s_%s" % (tag.replace("-", "_"), k)
        self.pre = "%s%s_" % (tag.replace("-", ""), k)
        self.params, self.args, self.body, self.top = [], [], [], []
        self.before, self.after = [], []   # TLX lines around the call
        self.vtypes = {}
        self.n = 0
        self.ind = 1
        self.what = tag
        self.untyped = None  # merge-typeinfo: the last untyped producer

    def uid(self, s):
        self.n += 1
        return "%s%s%d" % (self.pre, s, self.n)

    def B(self, s):
        """A line of the function body."""
        self.body.append("  " * self.ind + s)

    def R(self, s):
        """A line of the reference."""
        self.p.R(s)

    def decl(self, ctype, n, name=None, align=0):
        name = name or self.uid("r")
        self.p.decls.append("static %s %s[%d]%s;" % (
            ctype, name, max(1, n),
            " __attribute__((aligned(%d)))" % align if align else ""))
        return name

    def data(self, dt, n, align=0, mode=None):
        """An array of deterministic data (declared in the case)."""
        name = self.decl(CT[dt], n, self.uid("a"), align)
        if mode is None:
            mode = 1 if dt == "f32" else 0
        self.p.inits.append("tlxp_fill(%s, %s, %d, %du, %d);" % (
            name, FILL[dt], n, self.rng.getrandbits(32), mode))
        return name

    def input(self, dt, n, align=0, mode=None, restrict=False):
        """data(), passed as a const pointer."""
        name = self.data(dt, n, align, mode)
        self.params.append("const %s *%s%s" % (
            CT[dt], "restrict " if restrict else "", name))
        self.args.append(name)
        return name

    def output(self, dt, n, what, restrict=False):
        """An output array (got, exp) both starting as 0x5a bytes, checked
        whole; the function writes got."""
        got, exp = self.uid("got"), self.uid("exp")
        for a in (got, exp):
            self.decl(CT[dt], n, a)
        self.p.inits.append("memset(%s, 0x5a, sizeof %s); memset(%s, 0x5a, "
                            "sizeof %s);" % (got, got, exp, exp))
        self.params.append("%s *%s%s" % (CT[dt], "restrict " if restrict
                                         else "", got))
        self.args.append(got)
        self.p.checks.append(("%s: %s" % (self.what, what), got, exp, dt,
                              max(1, n), 0.0, 0.0))
        return got, exp

    def vint(self, v):
        """A volatile int: (name the reference reads, parameter name)."""
        g = self.uid("k")
        self.p.globs.append("static volatile int %s = %d;" % (g, v))
        self.params.append("int %s_p" % g)
        self.args.append(g)
        return g, g + "_p"

    def vfloat(self, v):
        g = self.uid("s")
        self.p.globs.append("static volatile float %s = %s;" % (g, cfloat(v)))
        self.params.append("float %s_p" % g)
        self.args.append(g)
        return g, g + "_p"

    def vtype(self, dt, n, ext=None):
        """(vector type, op suffix) of n elements of dt: ext_vector_type or
        __vector_size__ (ext: which), its ops declared with
        TLX_DECLARE_TENSOR_OPS_AS."""
        if ext is None:
            ext = self.rng.random() < 0.5
        key = (dt, n, ext)
        if key not in self.vtypes:
            name = "%sv%d%s%s" % (self.pre, n, dt, "e" if ext else "s")
            attr = ("ext_vector_type(%d)" % n if ext else
                    "__vector_size__(%d)" % (n * (1 if dt in ("i8", "u8")
                                                  else 4)))
            self.top.append("typedef %s %s __attribute__((%s));" % (
                CT[dt], name, attr))
            self.top.append("TLX_DECLARE_TENSOR_OPS_AS(%s, %s)" % (name,
                                                                   name))
            self.vtypes[key] = name
        return self.vtypes[key], self.vtypes[key]

    def sink(self, vt, nbytes):
        """A noinline function taking a vt by value (copies it out)."""
        name = "%s_sink" % vt
        if name not in "\n".join(self.top):
            self.top.append("static TLXP_NOINLINE void %s(%s v, void *dst) "
                            "{ memcpy(dst, &v, %d); }" % (name, vt, nbytes))
        return name

    def loops(self, ext, body):
        """Reference: body in loops over the row-major indices i0.. of
        ext."""
        self.R("{")
        for d, e in enumerate(ext):
            self.R("  " * (d + 1) + "for (int i%d = 0; i%d < %d; i%d++)" % (
                d, d, e, d))
        self.R("  " * (len(ext) + 1) + body)
        self.R("}")

    def finish(self):
        self.p.fns.append("\n".join(
            self.top + ["static TLXP_NOINLINE void %s(%s) {" % (
                self.name, ", ".join(self.params) or "void")] +
            self.body + ["}"]))
        for s in self.before:
            self.p.T(s)
        self.p.T("%s(%s);" % (self.name, ", ".join(self.args)))
        for s in self.after:
            self.p.T(s)
        self.p.tags.add(self.tag)


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

/* transformer.c - a Llama-style decoder generating tokens greedily, its
 * products in TLX's short form, beside its plain-C twin in the same
 * program: RMSNorm, Q/K/V projections, rotary embedding, attention over
 * the positions so far (Q K^T per head, softmax, times V), the output
 * projection, a SwiGLU feed-forward network, the classifier and greedy
 * sampling. Every size comes from the model file's header at run time.
 *
 *   transformer [MODEL [STEPS [f32|bf16|q8 [DIM HIDDEN LAYERS HEADS VOCAB]]]]
 *       writes MODEL with random weights of that type and shape when it
 *       does not exist (default: a small f32 model in /tmp), decodes STEPS
 *       tokens with TLX and with the twin, both fed the twin's tokens,
 *       and checks that both pick the same tokens with logits within 1e-4
 *       of the largest logit (the products sum in another order); q8
 *       within 2e-2 (Q8_TOLERANCE), where a token the twin's logits tie
 *       within that may differ.
 *   transformer --bench MODEL STEPS tlx|twin
 *       decodes STEPS tokens with one of them and prints the GB/s of
 *       weights read and tokens/s ("NAME transformer-gbs-TYPE DIM LAYERS
 *       STEPS GB/S", then "NAME transformer-TYPE DIM LAYERS STEPS TOK/S").
 *
 * TLX computes every product: the projections and the classifier
 * (W x with W the file's d x n matrix: TLX streams W once, in place; bf16
 * weights are widened to f32 as they are read), the attention scores
 * (K q, K the cache's rows of this head) and the attention's mix (att V).
 * RMSNorm, softmax, SwiGLU's gate and the residual adds are the short
 * form's arithmetic (tlx_add, tlx_mul, tlx_div... with the row reductions;
 * the twin's are C loops); the rotary embedding is the same C in both. q8 weights are group-quantized int8 (docs/tutorial.md, step 8):
 * each row's groups of 32 have a float scale, the activations are
 * quantized the same way (by the same C in both), and TLX computes the
 * group sums - exact int32 - in one pass over W, the scales applied by a
 * C loop; the twin is the loop a quantized decoder writes (llama2.c's
 * runq.c). DIM and HIDDEN must then be multiples of 32.
 *
 *   tlx-cc -O2 -march=native samples/transformer.c -lm -o transformer
 *
 * -DTLX_TWIN_ONLY builds the twin alone with any C compiler (the TLX
 * products then run the twin's loops): bench/run's baseline, built by
 * clang -O3 -ffast-math; with -fopenmp its products split their rows
 * over the threads.
 */
#define _POSIX_C_SOURCE 200809L
#ifndef TLX_TWIN_ONLY
#include <tlx.h>
#endif

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*===--- The model file -----------------------------------------------------===*/

/* Each matrix of q8 weights is its int8 values, row-major, then one float
 * scale per group of Q8_GROUP values of a row. */
enum { WEIGHTS_F32 = 0, WEIGHTS_BF16 = 1, WEIGHTS_Q8 = 2, Q8_GROUP = 32 };
/* q8's logits against the twin's, relative to the largest: the same C
 * quantizes both's activations, but TLX's float sums (norms, attention)
 * differ from the twin's in the last bit, and an activation halfway
 * between two steps of its group's scale rounds to either - one step,
 * 1/127 of the group's largest value, which moved the logits by 0.4-1.1%
 * at dim 512-1024 over 64 tokens (every other part is exact). */
#define Q8_TOLERANCE 2e-2

static const char *weights_name(int weights) {
  return weights == WEIGHTS_BF16 ? "bf16" : weights == WEIGHTS_Q8 ? "q8"
                                                                   : "f32";
}

typedef struct {
  char magic[4]; /* "TLXM" */
  int32_t version, dim, hidden, layers, heads, vocab, seq_len, weights;
} header_t;

typedef struct {
  header_t h;
  int weights;        /* WEIGHTS_* */
  float *embedding;   /* vocab x dim */
  float *rms_att;     /* layers x dim */
  float *rms_ffn;     /* layers x dim */
  float *rms_final;   /* dim */
  void *wq, *wk, *wv, *wo; /* layers x (dim x dim) */
  void *w1, *w3;      /* layers x (hidden x dim) */
  void *w2;           /* layers x (dim x hidden) */
  void *wcls;         /* vocab x dim */
} model_t;

static uint64_t rng_state;
static float rng_uniform(void) { /* [-1, 1) */
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (float)((rng_state >> 40) / (double)(1 << 23)) - 1.0f;
}

static uint16_t to_bf16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  u += 0x7fff + ((u >> 16) & 1);
  return (uint16_t)(u >> 16);
}

/* q (n) = round(v / s[g]), s[g] = max |v| of group g / 127: the int8
 * groups of a q8 row or of the activations. */
static void quantize(int8_t *q, float *s, const float *v, int n) {
  for (int g = 0; g < n / Q8_GROUP; ++g) {
    float max = 0;
    for (int k = 0; k < Q8_GROUP; ++k)
      max = fmaxf(max, fabsf(v[g * Q8_GROUP + k]));
    s[g] = max > 0 ? max / 127 : 1;
    for (int k = 0; k < Q8_GROUP; ++k)
      q[g * Q8_GROUP + k] = (int8_t)lrintf(v[g * Q8_GROUP + k] / s[g]);
  }
}

/* count matrices of rows x cols q8 weights, scale * uniform. */
static int write_q8(FILE *f, size_t count, size_t rows, size_t cols,
                    float scale) {
  size_t groups = cols / Q8_GROUP;
  float *v = malloc(cols * 4), *sc = malloc(rows * groups * 4);
  int8_t *q = malloc(rows * cols);
  int rc = !v || !sc || !q;
  for (size_t m = 0; m < count && !rc; ++m) {
    for (size_t i = 0; i < rows; ++i) {
      for (size_t j = 0; j < cols; ++j)
        v[j] = scale * rng_uniform();
      quantize(q + i * cols, sc + i * groups, v, (int)cols);
    }
    rc |= fwrite(q, 1, rows * cols, f) != rows * cols;
    rc |= fwrite(sc, 4, rows * groups, f) != rows * groups;
  }
  free(v), free(sc), free(q);
  return rc ? -1 : 0;
}

/* count values of scale * uniform, as f32 or bf16. */
static int write_values(FILE *f, size_t count, float scale, int bf16) {
  enum { CHUNK = 4096 };
  float buf[CHUNK];
  uint16_t half[CHUNK];
  while (count) {
    size_t n = count < CHUNK ? count : CHUNK;
    for (size_t i = 0; i < n; ++i) {
      buf[i] = scale * rng_uniform();
      half[i] = to_bf16(buf[i]);
    }
    if (fwrite(bf16 ? (void *)half : (void *)buf, bf16 ? 2 : 4, n, f) != n)
      return -1;
    count -= n;
  }
  return 0;
}

static int write_model(const char *path, header_t h) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return -1;
  rng_state = 0x2545f4914f6cdd1dull;
  size_t d = h.dim, hd = h.hidden, L = h.layers;
  int bf = h.weights == WEIGHTS_BF16, rc = 0;
  float wd = 1.0f / sqrtf((float)d), wh = 1.0f / sqrtf((float)hd);
  rc |= fwrite(&h, sizeof h, 1, f) != 1;
  rc |= write_values(f, (size_t)h.vocab * d, 1.0f, 0);
  for (int pass = 0; pass < 3; ++pass) /* rms_att, rms_ffn, rms_final */
    for (size_t i = 0; i < (pass < 2 ? L : 1) * d; ++i) {
      float g = 1.0f + 0.1f * rng_uniform();
      rc |= fwrite(&g, 4, 1, f) != 1;
    }
  if (h.weights == WEIGHTS_Q8) {
    rc |= write_q8(f, 4 * L, d, d, wd);  /* wq, wk, wv, wo */
    rc |= write_q8(f, 2 * L, hd, d, wd); /* w1, w3 */
    rc |= write_q8(f, L, d, hd, wh);     /* w2 */
    rc |= write_q8(f, 1, h.vocab, d, wd);
  } else {
    rc |= write_values(f, 4 * L * d * d, wd, bf);  /* wq, wk, wv, wo */
    rc |= write_values(f, 2 * L * hd * d, wd, bf); /* w1, w3 */
    rc |= write_values(f, L * d * hd, wh, bf);     /* w2 */
    rc |= write_values(f, (size_t)h.vocab * d, wd, bf);
  }
  return fclose(f) | rc ? -1 : 0;
}

static void *read_block(FILE *f, size_t bytes, int *bad) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p || fread(p, 1, bytes, f) != bytes)
    *bad = 1;
  return p;
}

/* Bytes of one rows x cols matrix of \p weights. */
static size_t matrix_bytes(int weights, size_t rows, size_t cols) {
  return weights == WEIGHTS_Q8 ? rows * cols + rows * (cols / Q8_GROUP) * 4
         : weights == WEIGHTS_BF16 ? rows * cols * 2
                                   : rows * cols * 4;
}

static int read_model(const char *path, model_t *m) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return -1;
  int bad = fread(&m->h, sizeof m->h, 1, f) != 1;
  header_t h = m->h;
  if (bad || memcmp(h.magic, "TLXM", 4) || h.dim <= 0 || h.hidden <= 0 ||
      h.layers <= 0 || h.heads <= 0 || h.dim % h.heads ||
      (h.dim / h.heads) % 2 || h.vocab <= 0 || h.seq_len <= 0 ||
      (h.weights != WEIGHTS_F32 && h.weights != WEIGHTS_BF16 &&
       h.weights != WEIGHTS_Q8) ||
      (h.weights == WEIGHTS_Q8 && (h.dim % Q8_GROUP || h.hidden % Q8_GROUP))) {
    fclose(f);
    return -1;
  }
  size_t d = h.dim, hd = h.hidden, L = h.layers;
  size_t dd = matrix_bytes(h.weights, d, d), dh = matrix_bytes(h.weights, hd, d);
  m->weights = h.weights;
  m->embedding = read_block(f, (size_t)h.vocab * d * 4, &bad);
  m->rms_att = read_block(f, L * d * 4, &bad);
  m->rms_ffn = read_block(f, L * d * 4, &bad);
  m->rms_final = read_block(f, d * 4, &bad);
  m->wq = read_block(f, L * dd, &bad);
  m->wk = read_block(f, L * dd, &bad);
  m->wv = read_block(f, L * dd, &bad);
  m->wo = read_block(f, L * dd, &bad);
  m->w1 = read_block(f, L * dh, &bad);
  m->w3 = read_block(f, L * dh, &bad);
  m->w2 = read_block(f, L * matrix_bytes(h.weights, d, hd), &bad);
  m->wcls = read_block(f, matrix_bytes(h.weights, h.vocab, d), &bad);
  fclose(f);
  return bad ? -1 : 0;
}

static void free_model(model_t *m) {
  void *blocks[] = {m->embedding, m->rms_att, m->rms_ffn, m->rms_final,
                    m->wq,        m->wk,      m->wv,      m->wo,
                    m->w1,        m->w3,      m->w2,      m->wcls};
  for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; ++i)
    free(blocks[i]);
}

/*===--- The products: TLX and the plain-C twin -----------------------------===*/

typedef struct {
  /* y (d) = W (d x n, row-major, WEIGHTS_*) x (n) */
  void (*matvec)(float *y, const void *w, const float *x, int d, int n,
                 int weights);
  /* scores (t) = K (t x hs, rows ld apart) q (hs) */
  void (*scores)(float *s, const float *k, const float *q, int t, int hs,
                 int ld);
  /* out (hs) = att (t) V (t x hs, rows ld apart) */
  void (*mix)(float *out, const float *att, const float *v, int t, int hs,
              int ld);
  /* o (n) = g * x / rms(x); o may be x */
  void (*rmsnorm)(float *o, const float *x, const float *g, int n);
  /* x (n) = softmax(x * scale) */
  void (*softmax)(float *x, int n, float scale);
  /* h (n) = silu(h) * h2 (SwiGLU's gate) */
  void (*swiglu)(float *h, const float *h2, int n);
  /* x (n) += f (a residual) */
  void (*residual)(float *x, const float *f, int n);
} products_t;

/* The activations x (n) quantized for a q8 product (the same C for TLX
 * and the twin), and scratch for its group sums. */
typedef struct {
  int8_t *xq;
  float *xs;
  int32_t *sums;
  size_t n, sums_n;
} q8_scratch_t;
static q8_scratch_t q8;

static int q8_prepare(const float *x, int d, int n) {
  if ((size_t)n > q8.n) {
    free(q8.xq), free(q8.xs);
    q8.xq = malloc(n), q8.xs = malloc((n / Q8_GROUP + 1) * 4), q8.n = n;
  }
  size_t sums = (size_t)d * (n / Q8_GROUP);
  if (sums > q8.sums_n) {
    free(q8.sums);
    q8.sums = malloc(sums * 4), q8.sums_n = sums;
  }
  if (!q8.xq || !q8.xs || !q8.sums) {
    fprintf(stderr, "transformer: out of memory\n");
    exit(1);
  }
  quantize(q8.xq, q8.xs, x, n);
  return n / Q8_GROUP;
}

#ifndef TLX_TWIN_ONLY
typedef int32_t i32v __attribute__((__vector_size__(16)));
TLX_DECLARE_TENSOR_OPS_AS(i32v, i32)

/* y (d) = sum over groups of W's int32 group sums times both scales: the
 * sums [d][groups] are one batched product over the groups (W's rows read
 * as [groups][d][32]: one pass over W). */
static void tlx_matvec_q8(float *y, const int8_t *wq, const float *x, int d,
                          int n) {
  int groups = q8_prepare(x, d, n);
  const float *ws = (const float *)(wq + (size_t)d * n);
  tlx_token_t w = tensor_load(wq, TLX_SHAPE(d, groups, Q8_GROUP),
                              TLX_LAYOUT(1, 0, 2), TLX_ZEROS(3), TLX_ZEROS(3));
  i32v p = tensor_matmul_i32(w, TLX_LOAD(q8.xq, groups, Q8_GROUP, 1));
  TLX_STORE(q8.sums, tensor_typeinfo(p, TLX_SHAPE(d, groups, 1),
                                     TLX_LAYOUT(1, 0, 2), TLX_ZEROS(3)));
#pragma omp parallel for
  for (int i = 0; i < d; ++i) {
    float acc = 0;
    for (int g = 0; g < groups; ++g)
      acc += (float)q8.sums[(size_t)i * groups + g] *
             ws[(size_t)i * groups + g] * q8.xs[g];
    y[i] = acc;
  }
}

static void tlx_matvec(float *y, const void *w, const float *x, int d, int n,
                       int weights) {
  if (weights == WEIGHTS_Q8)
    tlx_matvec_q8(y, w, x, d, n);
  else if (weights == WEIGHTS_BF16)
    TLX_STORE(y, tlx_matmul(TLX_LOAD((const __bf16 *)w, d, n),
                            TLX_LOAD(x, n, 1)));
  else
    TLX_STORE(y, tlx_matmul(TLX_LOAD((const float *)w, d, n),
                            TLX_LOAD(x, n, 1)));
}

static void tlx_scores(float *s, const float *k, const float *q, int t,
                       int hs, int ld) {
  tlx_token_t keys = tensor_load(k, TLX_SHAPE(t, hs), TLX_LAYOUT(0, 1),
                                 TLX_ZEROS(2), TLX_DIMS(0, ld));
  TLX_STORE(s, tlx_matmul(keys, TLX_LOAD(q, hs, 1)));
}

static void tlx_mix(float *out, const float *att, const float *v, int t,
                    int hs, int ld) {
  tlx_token_t values = tensor_load(v, TLX_SHAPE(t, hs), TLX_LAYOUT(0, 1),
                                   TLX_ZEROS(2), TLX_DIMS(0, ld));
  TLX_STORE(out, tlx_matmul(TLX_LOAD(att, 1, t), values));
}

/* The row reductions keep an extent of 1 (a window as wide as the row),
 * which the short form's arithmetic broadcasts back over the row. */
static void tlx_rmsnorm(float *o, const float *x, const float *g, int n) {
  tlx_token_t t = TLX_LOAD(x, 1, n);
  tlx_token_t ms = tlx_div(
      tlx_reduce_add(tlx_mul(t, t), TLX_DIMS(1, n), TLX_DIMS(1, n)), n);
  tlx_token_t r = tlx_div(1, tlx_sqrt(tlx_add(ms, 1e-5f)));
  TLX_STORE(o, tlx_mul(TLX_LOAD(g, 1, n), tlx_mul(r, t)));
}

static void tlx_softmax(float *x, int n, float scale) {
  tlx_token_t s = tlx_mul(TLX_LOAD(x, 1, n), scale);
  tlx_token_t e = tlx_exp(
      tlx_sub(s, tlx_reduce_max(s, TLX_DIMS(1, n), TLX_DIMS(1, n))));
  TLX_STORE(x, tlx_div(e, tlx_reduce_add(e, TLX_DIMS(1, n), TLX_DIMS(1, n))));
}

static void tlx_swiglu(float *h, const float *h2, int n) {
  tlx_token_t a = TLX_LOAD(h, n);
  TLX_STORE(h, tlx_mul(tlx_mul(a, tlx_sigmoid(a)), TLX_LOAD(h2, n)));
}

static void tlx_residual(float *x, const float *f, int n) {
  TLX_STORE(x, tlx_add(TLX_LOAD(x, n), TLX_LOAD(f, n)));
}

#endif

static float bf16_value(const void *w, size_t i) {
  uint32_t u = (uint32_t)((const uint16_t *)w)[i] << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* runq.c's matmul: each row's groups summed in int32, then scaled. */
static void c_matvec_q8(float *y, const int8_t *wq, const float *x, int d,
                        int n) {
  int groups = q8_prepare(x, d, n);
  const float *ws = (const float *)(wq + (size_t)d * n);
#pragma omp parallel for
  for (int i = 0; i < d; ++i) {
    float acc = 0;
    for (int g = 0; g < groups; ++g) {
      int32_t isum = 0;
      for (int k = 0; k < Q8_GROUP; ++k)
        isum += (int32_t)wq[(size_t)i * n + g * Q8_GROUP + k] *
                (int32_t)q8.xq[g * Q8_GROUP + k];
      acc += (float)isum * ws[(size_t)i * groups + g] * q8.xs[g];
    }
    y[i] = acc;
  }
}

static void c_matvec(float *y, const void *w, const float *x, int d, int n,
                     int weights) {
  int bf16 = weights == WEIGHTS_BF16;
  if (weights == WEIGHTS_Q8) {
    c_matvec_q8(y, w, x, d, n);
    return;
  }
#pragma omp parallel for
  for (int i = 0; i < d; ++i) {
    float acc = 0;
    if (bf16)
      for (int j = 0; j < n; ++j)
        acc += bf16_value(w, (size_t)i * n + j) * x[j];
    else
      for (int j = 0; j < n; ++j)
        acc += ((const float *)w)[(size_t)i * n + j] * x[j];
    y[i] = acc;
  }
}

static void c_scores(float *s, const float *k, const float *q, int t, int hs,
                     int ld) {
  for (int i = 0; i < t; ++i) {
    float acc = 0;
    for (int j = 0; j < hs; ++j)
      acc += k[(size_t)i * ld + j] * q[j];
    s[i] = acc;
  }
}

static void c_mix(float *out, const float *att, const float *v, int t, int hs,
                  int ld) {
  for (int j = 0; j < hs; ++j)
    out[j] = 0;
  for (int i = 0; i < t; ++i)
    for (int j = 0; j < hs; ++j)
      out[j] += att[i] * v[(size_t)i * ld + j];
}

static void c_rmsnorm(float *o, const float *x, const float *g, int n) {
  float ss = 0;
  for (int i = 0; i < n; ++i)
    ss += x[i] * x[i];
  ss = 1.0f / sqrtf(ss / n + 1e-5f);
  for (int i = 0; i < n; ++i)
    o[i] = g[i] * (ss * x[i]);
}

static void c_softmax(float *x, int n, float scale) {
  float max = x[0] * scale, sum = 0;
  for (int i = 0; i < n; ++i)
    x[i] *= scale, max = x[i] > max ? x[i] : max;
  for (int i = 0; i < n; ++i)
    sum += x[i] = expf(x[i] - max);
  for (int i = 0; i < n; ++i)
    x[i] /= sum;
}

static void c_swiglu(float *h, const float *h2, int n) {
  for (int i = 0; i < n; ++i)
    h[i] = h[i] / (1.0f + expf(-h[i])) * h2[i];
}

static void c_residual(float *x, const float *f, int n) {
  for (int i = 0; i < n; ++i)
    x[i] += f[i];
}

static const products_t with_c = {c_matvec,  c_scores,  c_mix,     c_rmsnorm,
                                  c_softmax, c_swiglu, c_residual};
#ifndef TLX_TWIN_ONLY
static const products_t with_tlx = {tlx_matvec,  tlx_scores, tlx_mix,
                                    tlx_rmsnorm, tlx_softmax, tlx_swiglu,
                                    tlx_residual};
#else
#define with_tlx with_c
#endif

/*===--- The decoder ---------------------------------------------------------===*/

typedef struct {
  float *x, *xb, *xb2, *q, *hb, *hb2, *att, *logits;
  float *key_cache, *value_cache; /* layers x seq_len x dim */
} state_t;

static int alloc_state(state_t *s, const header_t *h) {
  size_t d = h->dim, cache = (size_t)h->layers * h->seq_len * d;
  s->x = calloc(d, 4);
  s->xb = calloc(d, 4);
  s->xb2 = calloc(d, 4);
  s->q = calloc(d, 4);
  s->hb = calloc(h->hidden, 4);
  s->hb2 = calloc(h->hidden, 4);
  s->att = calloc(h->seq_len, 4);
  s->logits = calloc(h->vocab, 4);
  s->key_cache = calloc(cache, 4);
  s->value_cache = calloc(cache, 4);
  return s->x && s->xb && s->xb2 && s->q && s->hb && s->hb2 && s->att &&
                 s->logits && s->key_cache && s->value_cache
             ? 0
             : -1;
}

static void free_state(state_t *s) {
  float *p[] = {s->x,  s->xb,  s->xb2,    s->q,         s->hb,
                s->hb2, s->att, s->logits, s->key_cache, s->value_cache};
  for (size_t i = 0; i < sizeof p / sizeof p[0]; ++i)
    free(p[i]);
}

/* Rotary embedding of the pairs of one head's query or key. */
static void rotate(float *v, int dim, int hs, int pos) {
  for (int i = 0; i < dim; i += 2) {
    float freq = 1.0f / powf(10000.0f, (float)(i % hs) / (float)hs);
    float c = cosf(pos * freq), s = sinf(pos * freq);
    float a = v[i], b = v[i + 1];
    v[i] = a * c - b * s;
    v[i + 1] = a * s + b * c;
  }
}

static const void *matrix(const void *base, const model_t *m, int layer,
                          size_t rows, size_t cols) {
  return (const char *)base +
         (size_t)layer * matrix_bytes(m->weights, rows, cols);
}

/* The logits of the token after `token` at position `pos`. */
static float *forward(const model_t *m, state_t *s, const products_t *p,
                      int token, int pos) {
  const header_t *h = &m->h;
  int d = h->dim, hd = h->hidden, hs = d / h->heads;
  int wt = h->weights;
  memcpy(s->x, m->embedding + (size_t)token * d, (size_t)d * 4);
  for (int l = 0; l < h->layers; ++l) {
    float *kc = s->key_cache + ((size_t)l * h->seq_len) * d;
    float *vc = s->value_cache + ((size_t)l * h->seq_len) * d;
    p->rmsnorm(s->xb, s->x, m->rms_att + (size_t)l * d, d);
    p->matvec(s->q, matrix(m->wq, m, l, d, d), s->xb, d, d, wt);
    p->matvec(kc + (size_t)pos * d, matrix(m->wk, m, l, d, d), s->xb, d, d, wt);
    p->matvec(vc + (size_t)pos * d, matrix(m->wv, m, l, d, d), s->xb, d, d, wt);
    rotate(s->q, d, hs, pos);
    rotate(kc + (size_t)pos * d, d, hs, pos);
    for (int head = 0; head < h->heads; ++head) {
      p->scores(s->att, kc + head * hs, s->q + head * hs, pos + 1, hs, d);
      p->softmax(s->att, pos + 1, 1.0f / sqrtf((float)hs));
      p->mix(s->xb + head * hs, s->att, vc + head * hs, pos + 1, hs, d);
    }
    p->matvec(s->xb2, matrix(m->wo, m, l, d, d), s->xb, d, d, wt);
    p->residual(s->x, s->xb2, d);
    p->rmsnorm(s->xb, s->x, m->rms_ffn + (size_t)l * d, d);
    p->matvec(s->hb, matrix(m->w1, m, l, hd, d), s->xb, hd, d, wt);
    p->matvec(s->hb2, matrix(m->w3, m, l, hd, d), s->xb, hd, d, wt);
    p->swiglu(s->hb, s->hb2, hd);
    p->matvec(s->xb, matrix(m->w2, m, l, d, hd), s->hb, d, hd, wt);
    p->residual(s->x, s->xb, d);
  }
  p->rmsnorm(s->x, s->x, m->rms_final, d);
  p->matvec(s->logits, m->wcls, s->x, h->vocab, d, wt);
  return s->logits;
}

static int argmax(const float *v, int n) {
  int best = 0;
  for (int i = 1; i < n; ++i)
    if (v[i] > v[best])
      best = i;
  return best;
}

/*===--- Driver ---------------------------------------------------------------===*/

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static size_t weight_bytes(const model_t *m) {
  const header_t *h = &m->h;
  size_t d = h->dim, hd = h->hidden;
  return (size_t)h->layers * (4 * matrix_bytes(h->weights, d, d) +
                              3 * matrix_bytes(h->weights, hd, d)) +
         matrix_bytes(h->weights, h->vocab, d);
}

static int open_model(const char *path, model_t *m, header_t want) {
  if (read_model(path, m) == 0)
    return 0;
  if (write_model(path, want) || read_model(path, m)) {
    fprintf(stderr, "transformer: cannot read or write the model %s\n", path);
    return -1;
  }
  return 0;
}

static int bench(const char *path, int steps, const char *who) {
  model_t m;
  state_t s;
  if (read_model(path, &m) || alloc_state(&s, &m.h)) {
    fprintf(stderr, "transformer: cannot read %s\n", path);
    return 1;
  }
  const products_t *p = strcmp(who, "tlx") ? &with_c : &with_tlx;
  if (steps > m.h.seq_len)
    steps = m.h.seq_len;
  int token = 1;
  forward(&m, &s, p, token, 0); /* warm: caches, scratch buffers */
  double t0 = now();
  for (int pos = 0; pos < steps; ++pos)
    token = argmax(forward(&m, &s, p, token, pos), m.h.vocab);
  double t = now() - t0;
  const char *type = weights_name(m.h.weights);
  printf("%s transformer-gbs-%s %d %d %d %.2f\n", who, type, m.h.dim,
         m.h.layers, steps, weight_bytes(&m) * steps / t * 1e-9);
  printf("%s transformer-%s %d %d %d %.2f\n", who, type, m.h.dim, m.h.layers,
         steps, steps / t);
  free_state(&s);
  free_model(&m);
  free(q8.xq), free(q8.xs), free(q8.sums);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 5 && !strcmp(argv[1], "--bench"))
    return bench(argv[2], atoi(argv[3]), argv[4]);
  const char *path = argc > 1 ? argv[1] : "/tmp/tlx-transformer-small.bin";
  int steps = argc > 2 ? atoi(argv[2]) : 24;
  header_t want = {{'T', 'L', 'X', 'M'}, 1, 64, 176, 2, 4, 97, 32,
                   WEIGHTS_F32};
  if (argc > 3)
    want.weights = !strcmp(argv[3], "bf16") ? WEIGHTS_BF16
                   : !strcmp(argv[3], "q8") ? WEIGHTS_Q8
                                            : WEIGHTS_F32;
  if (want.weights == WEIGHTS_Q8)
    want.hidden = 192; /* (a multiple of the groups) */
  if (argc > 8) {
    want.dim = atoi(argv[4]);
    want.hidden = atoi(argv[5]);
    want.layers = atoi(argv[6]);
    want.heads = atoi(argv[7]);
    want.vocab = atoi(argv[8]);
    want.seq_len = steps > 0 ? steps : 1;
  }
  if (want.weights == WEIGHTS_Q8 &&
      (want.dim % Q8_GROUP || want.hidden % Q8_GROUP)) {
    fprintf(stderr, "transformer: q8 weights need DIM and HIDDEN multiples "
                    "of %d\n", Q8_GROUP);
    return 1;
  }
  model_t m;
  state_t a, b;
  if (open_model(path, &m, want) || alloc_state(&a, &m.h) ||
      alloc_state(&b, &m.h))
    return 1;
  const header_t *h = &m.h;
  printf("model: dim %d, hidden %d, %d layers, %d heads, vocab %d, %s "
         "weights\n",
         h->dim, h->hidden, h->layers, h->heads, h->vocab,
         weights_name(h->weights));
  if (steps > h->seq_len)
    steps = h->seq_len;
  /* Both decode the twin's tokens: once a near tie went another way, two
   * greedy decodings compare nothing. */
  double tolerance = h->weights == WEIGHTS_Q8 ? Q8_TOLERANCE : 1e-4;
  int token = 1, bad = 0;
  double worst = 0;
  printf("tokens:");
  for (int pos = 0; pos < steps && !bad; ++pos) {
    const float *lt = forward(&m, &a, &with_tlx, token, pos);
    const float *lc = forward(&m, &b, &with_c, token, pos);
    float scale = 0;
    for (int i = 0; i < h->vocab; ++i)
      scale = fabsf(lc[i]) > scale ? fabsf(lc[i]) : scale;
    scale = scale > 0 ? scale : 1;
    for (int i = 0; i < h->vocab; ++i) {
      double diff = fabs((double)lt[i] - lc[i]) / scale;
      worst = diff > worst ? diff : worst;
    }
    int token_tlx = argmax(lt, h->vocab);
    token = argmax(lc, h->vocab);
    printf(" %d", token_tlx);
    if (token_tlx != token &&
        (lc[token] - lc[token_tlx]) / scale > tolerance) {
      printf("\nFAILED at step %d: TLX picked %d, the twin %d\n", pos,
             token_tlx, token);
      bad = 1;
    }
  }
  printf("\nlargest logit difference: %.2g of the largest logit\n", worst);
  if (worst > tolerance) {
    printf("FAILED: logits differ by more than %g\n", tolerance);
    bad = 1;
  }
  printf("transformer: %s\n", bad ? "FAILED" : "OK");
  free_state(&a);
  free_state(&b);
  free_model(&m);
  free(q8.xq), free(q8.xs), free(q8.sums);
  return bad;
}

/* anchors.c - the reference libraries TLX's GEMMs are measured against.
 *
 * usage: anchors LIB TYPE M N K
 *   LIB:  onednn | openblas | naive
 *   TYPE: f32 | s8s8s32 | u8s8s32 | bf16      (openblas: f32 only)
 * Single-threaded (bench/run sets OMP_NUM_THREADS=1, OPENBLAS_NUM_THREADS=1
 * and OPENBLAS_CORETYPE before this process starts). Checks the result like
 * tlx_gemm.c, then prints "LIB TYPE M N K GFLOPS" (best of 5 or more).
 * The bf16 anchor is a oneDNN matmul primitive (oneDNN 2.6 has no bf16
 * BLAS-style call); its creation is outside the timed region. LIB
 * "onednn-matmul" times the int8 types through the matmul primitive too
 * (the gemm_*8s8s32 calls do not use AMX; the primitive does).
 * "onednn-dense" times the dense layer of bench/tlx_dense.c (f32, s8s8s32)
 * as one matmul primitive with bias, output scale and a relu post-op.
 * "anchors openblas-core" prints "info openblas-core NAME": the kernels
 * OpenBLAS chose (its own CPU detection, or OPENBLAS_CORETYPE).
 * "anchors onednn conv [blocked]" times the conv_common.h layer (the -D
 * layer this binary was built for) with oneDNN's convolution primitive,
 * algorithm auto: given the program's layout, or (blocked) in oneDNN's own
 * blocked layouts, as a framework keeps its activations.
 */
#define _POSIX_C_SOURCE 200809L
#include <cblas.h>
#include <oneapi/dnnl/dnnl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv_common.h"

typedef struct gemm_ctx {
  const char *lib;
  int bt, m, n, k;
  bench_matrices mats;
  dnnl_engine_t engine;
  dnnl_stream_t stream;
  dnnl_primitive_t matmul;
  dnnl_memory_t mem_a, mem_b, mem_c, mem_bias;
} gemm_ctx;

#define DNNL_CHECK(call)                                                       \
  do {                                                                         \
    dnnl_status_t s_ = (call);                                                 \
    if (s_ != dnnl_success) {                                                  \
      fprintf(stderr, "%s failed: %d\n", #call, (int)s_);                      \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

static void run_matmul(gemm_ctx *g) {
  dnnl_exec_arg_t args[3] = {{DNNL_ARG_SRC, g->mem_a},
                             {DNNL_ARG_WEIGHTS, g->mem_b},
                             {DNNL_ARG_DST, g->mem_c}};
  DNNL_CHECK(dnnl_primitive_execute(g->matmul, g->stream, 3, args));
  DNNL_CHECK(dnnl_stream_wait(g->stream));
}

static void run_onednn(gemm_ctx *g) {
  int m = g->m, n = g->n, k = g->k;
  switch (g->bt) {
  case 0:
    DNNL_CHECK(dnnl_sgemm('N', 'N', m, n, k, 1.0f, g->mats.a, k, g->mats.b, n,
                          0.0f, g->mats.c, n));
    break;
  case 1: {
    int32_t co = 0;
    DNNL_CHECK(dnnl_gemm_s8s8s32('N', 'N', 'F', m, n, k, 1.0f, g->mats.a, k,
                                 0, g->mats.b, n, 0, 0.0f, g->mats.c, n, &co));
    break;
  }
  case 2: {
    int32_t co = 0;
    DNNL_CHECK(dnnl_gemm_u8s8s32('N', 'N', 'F', m, n, k, 1.0f, g->mats.a, k,
                                 0, g->mats.b, n, 0, 0.0f, g->mats.c, n, &co));
    break;
  }
  case 3:
    run_matmul(g);
    break;
  }
}

static void setup_matmul(gemm_ctx *g) {
  static const dnnl_data_type_t a_type[] = {dnnl_f32, dnnl_s8, dnnl_u8,
                                            dnnl_bf16};
  static const dnnl_data_type_t c_type[] = {dnnl_f32, dnnl_s32, dnnl_s32,
                                            dnnl_f32};
  dnnl_memory_desc_t a_md, b_md, c_md;
  dnnl_dims_t ad = {g->m, g->k}, bd = {g->k, g->n}, cd = {g->m, g->n};
  DNNL_CHECK(dnnl_engine_create(&g->engine, dnnl_cpu, 0));
  DNNL_CHECK(dnnl_stream_create(&g->stream, g->engine,
                                dnnl_stream_default_flags));
  dnnl_data_type_t b_type = g->bt == 3 ? dnnl_bf16 : g->bt ? dnnl_s8 : dnnl_f32;
  DNNL_CHECK(dnnl_memory_desc_init_by_tag(&a_md, 2, ad, a_type[g->bt], dnnl_ab));
  DNNL_CHECK(dnnl_memory_desc_init_by_tag(&b_md, 2, bd, b_type, dnnl_ab));
  DNNL_CHECK(dnnl_memory_desc_init_by_tag(&c_md, 2, cd, c_type[g->bt], dnnl_ab));
  dnnl_matmul_desc_t desc;
  DNNL_CHECK(dnnl_matmul_desc_init(&desc, &a_md, &b_md, NULL, &c_md));
  dnnl_primitive_desc_t pd;
  dnnl_status_t st = dnnl_primitive_desc_create(&pd, &desc, NULL, g->engine,
                                                NULL);
  if (st == dnnl_unimplemented) {
    /* This oneDNN has no matmul for the type on this CPU (bf16 needs
     * AVX512-BF16 or AMX in oneDNN 2.6): a "-" in the table, not FAILED. */
    printf("%s %s %d %d %d unsupported\n", g->lib, bench_type_name(g->bt),
           g->m, g->n, g->k);
    exit(0);
  }
  DNNL_CHECK(st);
  DNNL_CHECK(dnnl_primitive_create(&g->matmul, pd));
  DNNL_CHECK(dnnl_primitive_desc_destroy(pd));
  DNNL_CHECK(dnnl_memory_create(&g->mem_a, &a_md, g->engine, g->mats.a));
  DNNL_CHECK(dnnl_memory_create(&g->mem_b, &b_md, g->engine, g->mats.b));
  DNNL_CHECK(dnnl_memory_create(&g->mem_c, &c_md, g->engine, g->mats.c));
}

/* The dense layer y = relu(0.5 (x W) + b) (f32) or relu(x W + b) (s8s8s32,
 * s32 bias and output) as one matmul primitive: bias argument, output
 * scale and an eltwise relu post-op (bench_check_dense checks it). */
static void setup_dense(gemm_ctx *g) {
  int int8 = g->bt == 1;
  dnnl_data_type_t in = int8 ? dnnl_s8 : dnnl_f32;
  dnnl_data_type_t out = int8 ? dnnl_s32 : dnnl_f32;
  dnnl_memory_desc_t a_md, b_md, bias_md, c_md;
  dnnl_dims_t ad = {g->m, g->k}, bd = {g->k, g->n}, cd = {g->m, g->n},
              biasd = {1, g->n};
  DNNL_CHECK(dnnl_engine_create(&g->engine, dnnl_cpu, 0));
  DNNL_CHECK(dnnl_stream_create(&g->stream, g->engine,
                                dnnl_stream_default_flags));
  DNNL_CHECK(dnnl_memory_desc_init_by_tag(&a_md, 2, ad, in, dnnl_ab));
  DNNL_CHECK(dnnl_memory_desc_init_by_tag(&b_md, 2, bd, in, dnnl_ab));
  DNNL_CHECK(dnnl_memory_desc_init_by_tag(&bias_md, 2, biasd, out, dnnl_ab));
  DNNL_CHECK(dnnl_memory_desc_init_by_tag(&c_md, 2, cd, out, dnnl_ab));
  dnnl_matmul_desc_t desc;
  DNNL_CHECK(dnnl_matmul_desc_init(&desc, &a_md, &b_md, &bias_md, &c_md));
  dnnl_primitive_attr_t attr;
  dnnl_post_ops_t ops;
  DNNL_CHECK(dnnl_primitive_attr_create(&attr));
  const float scale = int8 ? 1.0f : 0.5f;
  DNNL_CHECK(dnnl_primitive_attr_set_output_scales(attr, 1, 0, &scale));
  DNNL_CHECK(dnnl_post_ops_create(&ops));
  DNNL_CHECK(dnnl_post_ops_append_eltwise(ops, 1.0f, dnnl_eltwise_relu, 0, 0));
  DNNL_CHECK(dnnl_primitive_attr_set_post_ops(attr, ops));
  dnnl_primitive_desc_t pd;
  DNNL_CHECK(dnnl_primitive_desc_create(&pd, &desc, attr, g->engine, NULL));
  DNNL_CHECK(dnnl_primitive_create(&g->matmul, pd));
  DNNL_CHECK(dnnl_primitive_desc_destroy(pd));
  DNNL_CHECK(dnnl_post_ops_destroy(ops));
  DNNL_CHECK(dnnl_primitive_attr_destroy(attr));
  /* oneDNN scales the bias too (dst = scale (x W + b)): b / scale. */
  void *bias = malloc(sizeof(float) * g->n);
  for (int j = 0; j < g->n; ++j)
    if (int8)
      ((int32_t *)bias)[j] = bench_dense_bias(j);
    else
      ((float *)bias)[j] = bench_dense_bias(j) / scale;
  DNNL_CHECK(dnnl_memory_create(&g->mem_a, &a_md, g->engine, g->mats.a));
  DNNL_CHECK(dnnl_memory_create(&g->mem_b, &b_md, g->engine, g->mats.b));
  DNNL_CHECK(dnnl_memory_create(&g->mem_bias, &bias_md, g->engine, bias));
  DNNL_CHECK(dnnl_memory_create(&g->mem_c, &c_md, g->engine, g->mats.c));
}

static void run_dense(gemm_ctx *g) {
  dnnl_exec_arg_t args[4] = {{DNNL_ARG_SRC, g->mem_a},
                             {DNNL_ARG_WEIGHTS, g->mem_b},
                             {DNNL_ARG_BIAS, g->mem_bias},
                             {DNNL_ARG_DST, g->mem_c}};
  DNNL_CHECK(dnnl_primitive_execute(g->matmul, g->stream, 4, args));
  DNNL_CHECK(dnnl_stream_wait(g->stream));
}

static void run_openblas(gemm_ctx *g) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, g->m, g->n, g->k,
              1.0f, g->mats.a, g->k, g->mats.b, g->n, 0.0f, g->mats.c, g->n);
}

/* The loop a C programmer writes first (i-k-j, so the inner loop is
 * contiguous and vectorizable), compiled by bench/run at -O2. */
static void run_naive(gemm_ctx *g) {
  int m = g->m, n = g->n, k = g->k;
  memset(g->mats.c, 0, (size_t)m * n * 4);
  for (int i = 0; i < m; ++i)
    for (int p = 0; p < k; ++p) {
      if (g->bt == 0) {
        float av = ((float *)g->mats.a)[(size_t)i * k + p];
        const float *b = (float *)g->mats.b + (size_t)p * n;
        float *c = (float *)g->mats.c + (size_t)i * n;
        for (int j = 0; j < n; ++j)
          c[j] += av * b[j];
      } else if (g->bt == 3) {
        float av =
            bench_bf16_to_f32(((uint16_t *)g->mats.a)[(size_t)i * k + p]);
        const uint16_t *b = (uint16_t *)g->mats.b + (size_t)p * n;
        float *c = (float *)g->mats.c + (size_t)i * n;
        for (int j = 0; j < n; ++j)
          c[j] += av * bench_bf16_to_f32(b[j]);
      } else {
        uint8_t raw = ((uint8_t *)g->mats.a)[(size_t)i * k + p];
        int32_t av = g->bt == 2 ? (int32_t)raw : (int32_t)(int8_t)raw;
        const int8_t *b = (int8_t *)g->mats.b + (size_t)p * n;
        int32_t *c = (int32_t *)g->mats.c + (size_t)i * n;
        for (int j = 0; j < n; ++j)
          c[j] += av * b[j];
      }
    }
}

/* The conv_common.h layer through oneDNN's convolution primitive, given
 * the data in the program's layout (\p blocked 0: oneDNN picks its
 * implementation for that layout, e.g. gemm:jit for NCHW), or in blocked
 * layouts of oneDNN's choosing as a framework keeps them (\p blocked 1:
 * data and weights reordered once, untimed; only the convolution timed). */
static int conv_main(int blocked) {
  float *in, *wei, *out;
  conv_alloc(&in, &wei, &out);
  dnnl_engine_t engine;
  dnnl_stream_t stream;
  DNNL_CHECK(dnnl_engine_create(&engine, dnnl_cpu, 0));
  DNNL_CHECK(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags));
  dnnl_dims_t src_d = {1, CONV_C, CONV_H, CONV_W};
  dnnl_dims_t wei_d = {CONV_O, CONV_C, CONV_R, CONV_R};
  dnnl_dims_t dst_d = {1, CONV_O, CONV_OH, CONV_OW};
  dnnl_dims_t strides = {CONV_S, CONV_S}, pad = {0, 0};
  dnnl_format_tag_t data_tag = CONV_NHWC ? dnnl_nhwc : dnnl_nchw;
  dnnl_format_tag_t wei_tag = CONV_NHWC ? dnnl_hwio : dnnl_oihw;
  dnnl_memory_desc_t src_md, wei_md, dst_md, src_cd, wei_cd, dst_cd;
  DNNL_CHECK(dnnl_memory_desc_init_by_tag(&src_md, 4, src_d, dnnl_f32, data_tag));
  DNNL_CHECK(dnnl_memory_desc_init_by_tag(&wei_md, 4, wei_d, dnnl_f32, wei_tag));
  DNNL_CHECK(dnnl_memory_desc_init_by_tag(&dst_md, 4, dst_d, dnnl_f32, data_tag));
  dnnl_format_tag_t any = dnnl_format_tag_any;
  DNNL_CHECK(dnnl_memory_desc_init_by_tag(&src_cd, 4, src_d, dnnl_f32, blocked ? any : data_tag));
  DNNL_CHECK(dnnl_memory_desc_init_by_tag(&wei_cd, 4, wei_d, dnnl_f32, blocked ? any : wei_tag));
  DNNL_CHECK(dnnl_memory_desc_init_by_tag(&dst_cd, 4, dst_d, dnnl_f32, blocked ? any : data_tag));
  dnnl_convolution_desc_t cd;
  DNNL_CHECK(dnnl_convolution_forward_desc_init(
      &cd, dnnl_forward_inference, dnnl_convolution_direct, &src_cd,
      &wei_cd, NULL, &dst_cd, strides, pad, pad));
  dnnl_primitive_desc_t pd;
  DNNL_CHECK(dnnl_primitive_desc_create(&pd, &cd, NULL, engine, NULL));
  const dnnl_memory_desc_t *src_q =
      dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0);
  const dnnl_memory_desc_t *wei_q =
      dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
  const dnnl_memory_desc_t *dst_q =
      dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0);
  const char *impl = "?";
  DNNL_CHECK(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl));
  dnnl_primitive_t conv;
  DNNL_CHECK(dnnl_primitive_create(&conv, pd));
  dnnl_memory_t m_src, m_wei, m_dst, b_src, b_wei, b_dst;
  DNNL_CHECK(dnnl_memory_create(&m_src, &src_md, engine, in));
  DNNL_CHECK(dnnl_memory_create(&m_wei, &wei_md, engine, wei));
  DNNL_CHECK(dnnl_memory_create(&m_dst, &dst_md, engine, out));
  DNNL_CHECK(dnnl_memory_create(&b_src, src_q, engine, DNNL_MEMORY_ALLOCATE));
  DNNL_CHECK(dnnl_memory_create(&b_wei, wei_q, engine, DNNL_MEMORY_ALLOCATE));
  DNNL_CHECK(dnnl_memory_create(&b_dst, dst_q, engine, DNNL_MEMORY_ALLOCATE));
  /* Reorders into and out of the convolution's formats (copies when the
   * formats are the program's): once, outside the timing. */
  dnnl_primitive_desc_t rpd;
  dnnl_primitive_t r_src, r_wei, r_dst;
  DNNL_CHECK(dnnl_reorder_primitive_desc_create(&rpd, &src_md, engine, src_q, engine, NULL));
  DNNL_CHECK(dnnl_primitive_create(&r_src, rpd));
  DNNL_CHECK(dnnl_reorder_primitive_desc_create(&rpd, &wei_md, engine, wei_q, engine, NULL));
  DNNL_CHECK(dnnl_primitive_create(&r_wei, rpd));
  DNNL_CHECK(dnnl_reorder_primitive_desc_create(&rpd, dst_q, engine, &dst_md, engine, NULL));
  DNNL_CHECK(dnnl_primitive_create(&r_dst, rpd));
  dnnl_exec_arg_t rw[2] = {{DNNL_ARG_FROM, m_wei}, {DNNL_ARG_TO, b_wei}};
  DNNL_CHECK(dnnl_primitive_execute(r_wei, stream, 2, rw));
  dnnl_exec_arg_t rs[2] = {{DNNL_ARG_FROM, m_src}, {DNNL_ARG_TO, b_src}};
  DNNL_CHECK(dnnl_primitive_execute(r_src, stream, 2, rs));
  double best = 1e30;
  for (int r = 0; r < 21; ++r) {
    double t0 = bench_now();
    dnnl_exec_arg_t args[3] = {{DNNL_ARG_SRC, b_src},
                               {DNNL_ARG_WEIGHTS, b_wei},
                               {DNNL_ARG_DST, b_dst}};
    DNNL_CHECK(dnnl_primitive_execute(conv, stream, 3, args));
    DNNL_CHECK(dnnl_stream_wait(stream));
    double t = bench_now() - t0;
    if (r == 0) {
      dnnl_exec_arg_t rd[2] = {{DNNL_ARG_FROM, b_dst}, {DNNL_ARG_TO, m_dst}};
      DNNL_CHECK(dnnl_primitive_execute(r_dst, stream, 2, rd));
      DNNL_CHECK(dnnl_stream_wait(stream));
      if (conv_check(in, wei, out)) {
        printf("onednn%s " CONV_LABEL " FAILED\n", blocked ? "-blocked" : "");
        return 1;
      }
    }
    if (r > 0 && t < best)
      best = t;
  }
  printf("info onednn%s " CONV_LABEL " impl %s\n", blocked ? "-blocked" : "",
         impl);
  printf("onednn%s " CONV_LABEL " %.1f\n", blocked ? "-blocked" : "",
         conv_flops() / best * 1e-9);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "openblas-core")) {
    printf("info openblas-core %s\n", openblas_get_corename());
    return 0;
  }
  if (argc >= 3 && !strcmp(argv[2], "conv"))
    return conv_main(argc == 4 && !strcmp(argv[3], "blocked"));
  if (argc != 6) {
    fprintf(stderr, "usage: %s onednn|openblas|naive TYPE M N K\n", argv[0]);
    return 2;
  }
  gemm_ctx g;
  memset(&g, 0, sizeof(g));
  const char *lib = argv[1];
  g.lib = lib;
  for (g.bt = 0; g.bt < 4 && strcmp(argv[2], bench_type_name(g.bt)); ++g.bt)
    ;
  if (g.bt == 4) {
    fprintf(stderr, "unknown type %s\n", argv[2]);
    return 2;
  }
  g.m = atoi(argv[3]), g.n = atoi(argv[4]), g.k = atoi(argv[5]);
  void (*run)(gemm_ctx *) = !strcmp(lib, "onednn")          ? run_onednn
                            : !strcmp(lib, "onednn-matmul") ? run_matmul
                            : !strcmp(lib, "onednn-dense")  ? run_dense
                            : !strcmp(lib, "openblas")      ? run_openblas
                                                            : run_naive;
  if (run == run_openblas && g.bt != 0) {
    fprintf(stderr, "openblas: f32 only\n");
    return 2;
  }
  if (run == run_dense && g.bt > 1) {
    fprintf(stderr, "onednn-dense: f32 and s8s8s32 only\n");
    return 2;
  }
  bench_alloc(&g.mats, g.bt, g.m, g.n, g.k);
  if ((run == run_onednn && g.bt == 3) || run == run_matmul)
    setup_matmul(&g);
  if (run == run_dense)
    setup_dense(&g);
  run(&g);
  if (run == run_dense ? bench_check_dense(&g.mats, g.bt, g.m, g.n, g.k)
                       : bench_check(&g.mats, g.bt, g.m, g.n, g.k)) {
    printf("%s %s %d %d %d FAILED\n", lib, argv[2], g.m, g.n, g.k);
    return 1;
  }
  double best = 1e30;
  int reps = bench_reps(g.m, g.n, g.k, 5);
  if (run == run_naive && reps > 5)
    reps = 5;
  for (int r = 0; r < reps; ++r) {
    double t0 = bench_now();
    run(&g);
    double t = bench_now() - t0;
    if (t < best)
      best = t;
  }
  printf("%s %s %d %d %d %.1f\n", lib, argv[2], g.m, g.n, g.k,
         2.0 * g.m * g.n * (double)g.k / best * 1e-9);
  bench_free(&g.mats);
  return 0;
}

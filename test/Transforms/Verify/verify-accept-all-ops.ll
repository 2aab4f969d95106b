; Every TLX op in a valid form verifies clean: no message, exit status 0.
; RUN: %opt_tlx -passes=tlx-verify -disable-output %s 2>&1 | count 0
; With -pass-remarks-analysis, each compute op's inferred result (element
; type, logical shape) and how it is stored (its first result typeinfo, or
; the default: identity layout; transpose(T, perm): layout perm, padding
; permuted alike).
; RUN: %opt_tlx -passes=tlx-verify -pass-remarks-analysis=tlx-verify -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:

; typeinfo: vector data, memory data (elementtype or byval), a column-major
; layout, padding, a rank-3 layout permutation.
define void @typeinfo_forms(<12 x float> %v, ptr %p, ptr %q, <24 x i8> %w) {
  %rowmajor = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %v, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %colmajor = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %v, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 1, i32 0>, <2 x i32> <i32 0, i32 1>)
  %elttype = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %p, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %byval = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr byval(<12 x float>) %q, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %rank3 = call token @llvm.tensor.typeinfo.v24i8.v3i32.v3i32.v3i32(<24 x i8> %w, <3 x i32> <i32 2, i32 3, i32 4>, <3 x i32> <i32 2, i32 0, i32 1>, <3 x i32> <i32 0, i32 0, i32 4>)
  ret void
}

; Every supported element type.
define void @element_types(<2 x i8> %a, <2 x i16> %b, <2 x i32> %c, <2 x i64> %d, <2 x half> %e, <2 x bfloat> %f, <2 x float> %g, <2 x double> %h) {
  %ta = call token @llvm.tensor.typeinfo.v2i8.v1i32.v1i32.v1i32(<2 x i8> %a, <1 x i32> <i32 2>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v2i16.v1i32.v1i32.v1i32(<2 x i16> %b, <1 x i32> <i32 2>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  %tc = call token @llvm.tensor.typeinfo.v2i32.v1i32.v1i32.v1i32(<2 x i32> %c, <1 x i32> <i32 2>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  %td = call token @llvm.tensor.typeinfo.v2i64.v1i32.v1i32.v1i32(<2 x i64> %d, <1 x i32> <i32 2>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  %te = call token @llvm.tensor.typeinfo.v2f16.v1i32.v1i32.v1i32(<2 x half> %e, <1 x i32> <i32 2>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  %tf = call token @llvm.tensor.typeinfo.v2bf16.v1i32.v1i32.v1i32(<2 x bfloat> %f, <1 x i32> <i32 2>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  %tg = call token @llvm.tensor.typeinfo.v2f32.v1i32.v1i32.v1i32(<2 x float> %g, <1 x i32> <i32 2>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  %th = call token @llvm.tensor.typeinfo.v2f64.v1i32.v1i32.v1i32(<2 x double> %h, <1 x i32> <i32 2>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  ret void
}

; load and store: packed, and with leading dimensions (rows 8 apart; a
; leading dimension equal to the row length is packed too).
define void @load_store(ptr %src, ptr %dst) {
  %packed = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(float) %src, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %strided = call token @llvm.tensor.load.p0.v3i32.v3i32.v3i32.v3i32(ptr elementtype(i8) %src, <3 x i32> <i32 16, i32 6, i32 4>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer, <3 x i32> <i32 0, i32 0, i32 8>)
  %slices = call token @llvm.tensor.load.p0.v3i32.v3i32.v3i32.v3i32(ptr elementtype(i8) %src, <3 x i32> <i32 2, i32 6, i32 4>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer, <3 x i32> <i32 0, i32 100, i32 8>)
  call void @llvm.tensor.store.p0.v2i32(ptr elementtype(float) %dst, token %packed, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.p0.v2i32(ptr elementtype(float) %dst, token %packed, <2 x i32> <i32 0, i32 3>)
  call void @llvm.tensor.store.p0.v3i32(ptr elementtype(i8) %dst, token %strided, <3 x i32> <i32 0, i32 48, i32 8>)
  ; 6 rows 10 apart span 5 * 10 + 4 = 54 elements: slices 54 apart are
  ; disjoint.
  call void @llvm.tensor.store.p0.v3i32(ptr elementtype(i8) %dst, token %strided, <3 x i32> <i32 0, i32 54, i32 10>)
  ret void
}

; REMARK: remark: {{.*}}: llvm.tensor.tanh: f32 2x3, stored 2x3 layout <0, 1> padding <0, 0>
define void @totensor(<6 x float> %v) {
  %t = call token @llvm.vector.totensor.v6f32.v2i32.v2i32.v2i32(<6 x float> %v, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %u = call <6 x float> @llvm.tensor.tanh.v6f32(token %t)
  ret void
}

; matmul: 2-D, batched, column-major operand and result, widening bf16 and
; i8 operands, a memory-form result.
; REMARK: remark: {{.*}}: llvm.tensor.matmul: f32 3x5, stored 3x5 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.matmul: f32 2x3x5, stored 2x3x5 layout <0, 1, 2> padding <0, 0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.matmul: f32 3x2, stored 2x3 layout <1, 0> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.matmul: f32 3x2, stored 3x2 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.matmul: bf16 3x2, stored 3x2 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.matmul: i32 3x2, stored 3x2 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.matmul: i16 3x2, stored 3x2 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.matmul: f32 3x5, stored 3x5 layout <0, 1> padding <0, 0>
define void @matmul(<12 x float> %a, <20 x float> %b, <24 x float> %ba, <40 x float> %bb, <8 x float> %c, <12 x bfloat> %ha, <8 x bfloat> %hb, <12 x i8> %ia, <8 x i8> %ib, <8 x i16> %ic) {
  %ta = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v20f32.v2i32.v2i32.v2i32(<20 x float> %b, <2 x i32> <i32 4, i32 5>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <15 x float> @llvm.tensor.matmul.v15f32(token %ta, token %tb)
  %tr = call token @llvm.tensor.typeinfo.v15f32.v2i32.v2i32.v2i32(<15 x float> %r, <2 x i32> <i32 3, i32 5>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)

  %tba = call token @llvm.tensor.typeinfo.v24f32.v3i32.v3i32.v3i32(<24 x float> %ba, <3 x i32> <i32 2, i32 3, i32 4>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %tbb = call token @llvm.tensor.typeinfo.v40f32.v3i32.v3i32.v3i32(<40 x float> %bb, <3 x i32> <i32 2, i32 4, i32 5>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %batched = call <30 x float> @llvm.tensor.matmul.v30f32(token %tba, token %tbb)

  ; op1 stored column-major: storage 4x3, logical 3x4.
  %tcol = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %a, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 1, i32 0>, <2 x i32> zeroinitializer)
  %tc = call token @llvm.tensor.typeinfo.v8f32.v2i32.v2i32.v2i32(<8 x float> %c, <2 x i32> <i32 4, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %col = call <6 x float> @llvm.tensor.matmul.v6f32(token %tcol, token %tc)
  %tcolr = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %col, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 1, i32 0>, <2 x i32> zeroinitializer)

  %tha = call token @llvm.tensor.typeinfo.v12bf16.v2i32.v2i32.v2i32(<12 x bfloat> %ha, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %thb = call token @llvm.tensor.typeinfo.v8bf16.v2i32.v2i32.v2i32(<8 x bfloat> %hb, <2 x i32> <i32 4, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %bf = call <6 x float> @llvm.tensor.matmul.v6f32(token %tha, token %thb)
  %samebf = call <6 x bfloat> @llvm.tensor.matmul.v6bf16(token %tha, token %thb)

  %tia = call token @llvm.tensor.typeinfo.v12i8.v2i32.v2i32.v2i32(<12 x i8> %ia, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tib = call token @llvm.tensor.typeinfo.v8i8.v2i32.v2i32.v2i32(<8 x i8> %ib, <2 x i32> <i32 4, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %int = call <6 x i32> @llvm.tensor.matmul.v6i32(token %tia, token %tib)

  ; A pointer result without a typeinfo takes the wider operand type, i16.
  %tic = call token @llvm.tensor.typeinfo.v8i16.v2i32.v2i32.v2i32(<8 x i16> %ic, <2 x i32> <i32 4, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %wider = call ptr @llvm.tensor.matmul.p0(token %tia, token %tic)

  %mem = call ptr @llvm.tensor.matmul.p0(token %ta, token %tb)
  %tmem = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %mem, <2 x i32> <i32 3, i32 5>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret void
}

; contract is numpy's tensordot: op1's free dims, then op2's.
; REMARK: remark: {{.*}}: llvm.tensor.contract: f32 3x6, stored 3x6 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.contract: f32 1, stored 1 layout <0> padding <0>
define void @contract(<60 x float> %a, <120 x float> %b) {
  %ta = call token @llvm.tensor.typeinfo.v60f32.v3i32.v3i32.v3i32(<60 x float> %a, <3 x i32> <i32 3, i32 4, i32 5>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v120f32.v3i32.v3i32.v3i32(<120 x float> %b, <3 x i32> <i32 5, i32 4, i32 6>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %r = call <18 x float> @llvm.tensor.contract.v18f32.v2i32.v2i32(token %ta, token %tb, <2 x i32> <i32 1, i32 2>, <2 x i32> <i32 1, i32 0>)
  %tr = call token @llvm.tensor.typeinfo.v18f32.v2i32.v2i32.v2i32(<18 x float> %r, <2 x i32> <i32 3, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ; A full contraction gives a one-element tensor.
  %dot = call <1 x float> @llvm.tensor.contract.v1f32.v3i32.v3i32(token %ta, token %ta, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> <i32 0, i32 1, i32 2>)
  ret void
}

; The mma family: i8 operands accumulate into i32 (AMX tdpb*d).
; REMARK: remark: {{.*}}: llvm.tensor.umma: i32 3x3, stored 3x3 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.smma: i32 3x3, stored 3x3 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.usmma: i32 3x3, stored 3x3 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.summa: i32 3x3, stored 3x3 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.smma: i32 2x2x2, stored 2x2x2 layout <0, 1, 2> padding <0, 0, 0>
define void @mma(<9 x i32> %acc, <12 x i8> %a, <12 x i8> %b, <8 x i32> %bacc, <16 x i16> %ba) {
  %tacc = call token @llvm.tensor.typeinfo.v9i32.v2i32.v2i32.v2i32(<9 x i32> %acc, <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %ta = call token @llvm.tensor.typeinfo.v12i8.v2i32.v2i32.v2i32(<12 x i8> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v12i8.v2i32.v2i32.v2i32(<12 x i8> %b, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %u = call <9 x i32> @llvm.tensor.umma.v9i32(token %tacc, token %ta, token %tb)
  %s = call <9 x i32> @llvm.tensor.smma.v9i32(token %tacc, token %ta, token %tb)
  %us = call <9 x i32> @llvm.tensor.usmma.v9i32(token %tacc, token %ta, token %tb)
  %su = call <9 x i32> @llvm.tensor.summa.v9i32(token %tacc, token %ta, token %tb)
  %tu = call token @llvm.tensor.typeinfo.v9i32.v2i32.v2i32.v2i32(<9 x i32> %u, <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ; Batched, i16 operands, i32 accumulator.
  %tbacc = call token @llvm.tensor.typeinfo.v8i32.v3i32.v3i32.v3i32(<8 x i32> %bacc, <3 x i32> <i32 2, i32 2, i32 2>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %tba = call token @llvm.tensor.typeinfo.v16i16.v3i32.v3i32.v3i32(<16 x i16> %ba, <3 x i32> <i32 2, i32 2, i32 4>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %tbb = call token @llvm.tensor.typeinfo.v16i16.v3i32.v3i32.v3i32(<16 x i16> %ba, <3 x i32> <i32 2, i32 4, i32 2>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %batched = call <8 x i32> @llvm.tensor.smma.v8i32(token %tbacc, token %tba, token %tbb)
  ret void
}

; convolution: [N,C,spatial] x [O,C,kspatial]; 0 strides/dilations read as 1.
; REMARK: remark: {{.*}}: llvm.tensor.convolution: f32 1x3x2x1, stored 1x3x2x1 layout <0, 1, 2, 3> padding <0, 0, 0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.convolution: f32 1x3x7x7, stored 1x3x7x7 layout <0, 1, 2, 3> padding <0, 0, 0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.convolution: f32 1x2x2x2, stored 1x2x2x2 layout <0, 1, 2, 3> padding <0, 0, 0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.convolution: f32 1x1x3, stored 1x1x3 layout <0, 1, 2> padding <0, 0, 0>
define void @convolution(<50 x float> %in, <54 x float> %k, <16 x float> %in2, <18 x float> %k2, <8 x float> %in1, <3 x float> %k1) {
  %tin = call token @llvm.tensor.typeinfo.v50f32.v4i32.v4i32.v4i32(<50 x float> %in, <4 x i32> <i32 1, i32 2, i32 5, i32 5>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  %tk = call token @llvm.tensor.typeinfo.v54f32.v4i32.v4i32.v4i32(<54 x float> %k, <4 x i32> <i32 3, i32 2, i32 3, i32 3>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  ; dim 0: (5 - 3) / 2 + 1 = 2; dim 1: kernel dilated to 5, (5 - 5) / 1 + 1 = 1.
  %r = call <6 x float> @llvm.tensor.convolution.v6f32.v2i32.v2i32.v2i32(token %tin, token %tk, <2 x i32> <i32 2, i32 1>, <2 x i32> <i32 0, i32 0>, <2 x i32> <i32 1, i32 2>)
  %tr = call token @llvm.tensor.typeinfo.v6f32.v4i32.v4i32.v4i32(<6 x float> %r, <4 x i32> <i32 1, i32 3, i32 2, i32 1>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  ; Input dilation 2: 5 -> 9 positions, (9 - 3) / 1 + 1 = 7 on both dims.
  %dil = call <147 x float> @llvm.tensor.convolution.v147f32.v2i32.v2i32.v2i32(token %tin, token %tk, <2 x i32> zeroinitializer, <2 x i32> <i32 2, i32 2>, <2 x i32> zeroinitializer)
  ; Two-operand form (research prototype): unit strides, no dilation.
  %tin2 = call token @llvm.tensor.typeinfo.v16f32.v4i32.v4i32.v4i32(<16 x float> %in2, <4 x i32> <i32 1, i32 1, i32 4, i32 4>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  %tk2 = call token @llvm.tensor.typeinfo.v18f32.v4i32.v4i32.v4i32(<18 x float> %k2, <4 x i32> <i32 2, i32 1, i32 3, i32 3>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  %two = call <8 x float> @llvm.tensor.convolution.v8f32(token %tin2, token %tk2)
  ; 1-D, strides only.
  %tin1 = call token @llvm.tensor.typeinfo.v8f32.v3i32.v3i32.v3i32(<8 x float> %in1, <3 x i32> <i32 1, i32 1, i32 8>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %tk1 = call token @llvm.tensor.typeinfo.v3f32.v3i32.v3i32.v3i32(<3 x float> %k1, <3 x i32> <i32 1, i32 1, i32 3>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %one = call <3 x float> @llvm.tensor.convolution.v3f32.v1i32(token %tin1, token %tk1, <1 x i32> <i32 2>)
  ret void
}

; REMARK: remark: {{.*}}: llvm.tensor.tanh: f32 2x3, stored 2x3 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.sigmoid: f32 2x3, stored 2x3 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.relu: f32 2x3, stored 2x3 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.relu: i32 2x3, stored 2x3 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.sin: f32 2x3, stored 2x3 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.cos: f32 2x3, stored 2x3 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.exp: f32 2x3, stored 2x3 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.exp2: f32 2x3, stored 2x3 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.log: f32 2x3, stored 2x3 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.log2: f32 2x3, stored 2x3 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.log10: f32 2x3, stored 2x3 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.sqrt: f32 2x3, stored 2x3 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.fabs: f32 2x3, stored 2x3 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.floor: f32 2x3, stored 2x3 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.ceil: f32 2x3, stored 2x3 layout <0, 1> padding <0, 0>
define void @elementwise(<6 x float> %v, <6 x i32> %i) {
  %t = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %v, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %ti = call token @llvm.tensor.typeinfo.v6i32.v2i32.v2i32.v2i32(<6 x i32> %i, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tanh = call <6 x float> @llvm.tensor.tanh.v6f32(token %t)
  %ttanh = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %tanh, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %sigmoid = call <6 x float> @llvm.tensor.sigmoid.v6f32(token %t)
  %relu = call <6 x float> @llvm.tensor.relu.v6f32(token %t)
  %relui = call <6 x i32> @llvm.tensor.relu.v6i32(token %ti)
  %sin = call <6 x float> @llvm.tensor.sin.v6f32(token %t)
  %cos = call <6 x float> @llvm.tensor.cos.v6f32(token %t)
  %exp = call <6 x float> @llvm.tensor.exp.v6f32(token %t)
  %exp2 = call <6 x float> @llvm.tensor.exp2.v6f32(token %t)
  %log = call <6 x float> @llvm.tensor.log.v6f32(token %t)
  %log2 = call <6 x float> @llvm.tensor.log2.v6f32(token %t)
  %log10 = call <6 x float> @llvm.tensor.log10.v6f32(token %t)
  %sqrt = call <6 x float> @llvm.tensor.sqrt.v6f32(token %t)
  %fabs = call <6 x float> @llvm.tensor.fabs.v6f32(token %t)
  %floor = call <6 x float> @llvm.tensor.floor.v6f32(token %t)
  %ceil = call <6 x float> @llvm.tensor.ceil.v6f32(token %t)
  ret void
}

; broadcast(T) takes its shape from the result typeinfo (numpy rule);
; broadcast(T, scalar) fills T's shape.
; REMARK: remark: {{.*}}: llvm.tensor.broadcast: f32 2x3, stored 2x3 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.broadcast: f32 2x4x3, stored 2x4x3 layout <0, 1, 2> padding <0, 0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.broadcast: f32 2x3, stored 2x3 layout <0, 1> padding <0, 0>
define void @broadcast(<3 x float> %row, <6 x float> %m) {
  %trow = call token @llvm.tensor.typeinfo.v3f32.v2i32.v2i32.v2i32(<3 x float> %row, <2 x i32> <i32 1, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %b = call <6 x float> @llvm.tensor.broadcast.v6f32(token %trow)
  %tb = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %b, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tvec = call token @llvm.tensor.typeinfo.v3f32.v1i32.v1i32.v1i32(<3 x float> %row, <1 x i32> <i32 3>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  %c = call <24 x float> @llvm.tensor.broadcast.v24f32(token %tvec)
  %tc = call token @llvm.tensor.typeinfo.v24f32.v3i32.v3i32.v3i32(<24 x float> %c, <3 x i32> <i32 2, i32 4, i32 3>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %tm = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %m, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %fill = call <6 x float> @llvm.tensor.broadcast.v6f32.f32(token %tm, float 1.0)
  ret void
}

; reduce-window: out = (in - window) / stride + 1 per dim.
; REMARK: remark: {{.*}}: llvm.tensor.reduce.max: f32 2x3, stored 2x3 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.reduce.min: f32 2x3, stored 2x3 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.reduce.add: f32 2x4, stored 2x4 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.reduce.mul: f32 1x1, stored 1x1 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.reduce.and: i32 4x2, stored 4x2 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.reduce.or: i32 4x2, stored 4x2 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.reduce.xor: i32 4x2, stored 4x2 layout <0, 1> padding <0, 0>
define void @reduce(<24 x float> %f, <24 x i32> %i) {
  %tf = call token @llvm.tensor.typeinfo.v24f32.v2i32.v2i32.v2i32(<24 x float> %f, <2 x i32> <i32 4, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %ti = call token @llvm.tensor.typeinfo.v24i32.v2i32.v2i32.v2i32(<24 x i32> %i, <2 x i32> <i32 4, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %max = call <6 x float> @llvm.tensor.reduce.max.v6f32.v2i32.v2i32(token %tf, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 2, i32 2>)
  %tmax = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %max, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %min = call <6 x float> @llvm.tensor.reduce.min.v6f32.v2i32.v2i32(token %tf, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 2, i32 2>)
  ; Overlapping windows: (4 - 2) / 2 + 1 = 2 by (6 - 3) / 1 + 1 = 4.
  %add = call <8 x float> @llvm.tensor.reduce.add.v8f32.v2i32.v2i32(token %tf, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 2, i32 1>)
  %mul = call <1 x float> @llvm.tensor.reduce.mul.v1f32.v2i32.v2i32(token %tf, <2 x i32> <i32 4, i32 6>, <2 x i32> <i32 1, i32 1>)
  %and = call <8 x i32> @llvm.tensor.reduce.and.v8i32.v2i32.v2i32(token %ti, <2 x i32> <i32 1, i32 3>, <2 x i32> <i32 1, i32 3>)
  %or = call <8 x i32> @llvm.tensor.reduce.or.v8i32.v2i32.v2i32(token %ti, <2 x i32> <i32 1, i32 3>, <2 x i32> <i32 1, i32 3>)
  %xor = call <8 x i32> @llvm.tensor.reduce.xor.v8i32.v2i32.v2i32(token %ti, <2 x i32> <i32 1, i32 3>, <2 x i32> <i32 1, i32 3>)
  ret void
}

; reshape.block blocks each dim (oneDNN layouts): 4x6 by <2, 3> is
; 2x2x2x3; reshape.permute takes its shape from the result typeinfo.
; REMARK: remark: {{.*}}: llvm.tensor.reshape.block: f32 2x2x2x3, stored 2x2x2x3 layout <0, 1, 2, 3> padding <0, 0, 0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.reshape.block: f32 4x2x3, stored 4x2x3 layout <0, 1, 2> padding <0, 0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.reshape.permute: f32 3x8, stored 3x8 layout <0, 1> padding <0, 0>
define void @reshape(<24 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v24f32.v2i32.v2i32.v2i32(<24 x float> %v, <2 x i32> <i32 4, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %block = call <24 x float> @llvm.tensor.reshape.block.v24f32.v2i32(token %t, <2 x i32> <i32 2, i32 3>)
  %tblock = call token @llvm.tensor.typeinfo.v24f32.v4i32.v4i32.v4i32(<24 x float> %block, <4 x i32> <i32 2, i32 2, i32 2, i32 3>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  ; A block of 1 adds no dim: 4x6 by <1, 3> is 4x2x3.
  %rows = call <24 x float> @llvm.tensor.reshape.block.v24f32.v2i32(token %t, <2 x i32> <i32 1, i32 3>)
  %trows = call token @llvm.tensor.typeinfo.v24f32.v3i32.v3i32.v3i32(<24 x float> %rows, <3 x i32> <i32 4, i32 2, i32 3>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %perm = call <24 x float> @llvm.tensor.reshape.permute.v24f32(token %t)
  %tperm = call token @llvm.tensor.typeinfo.v24f32.v2i32.v2i32.v2i32(<24 x float> %perm, <2 x i32> <i32 3, i32 8>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret void
}

; transpose(T, perm) changes the layout (the RFC's example); transpose(T)
; swaps the last two logical dims.
; REMARK: remark: {{.*}}: llvm.tensor.transpose: f32 16x5x3, stored 3x16x5 layout <2, 0, 1> padding <1, 3, 2>
; REMARK: remark: {{.*}}: llvm.tensor.transpose: f32 16x5x3, stored 5x3x16 layout <1, 2, 0> padding <2, 1, 3>
; REMARK: remark: {{.*}}: llvm.tensor.transpose: f32 3x2, stored 3x2 layout <0, 1> padding <0, 0>
define void @transpose(<240 x float> %v, <6 x float> %m) {
  %t = call token @llvm.tensor.typeinfo.v240f32.v3i32.v3i32.v3i32(<240 x float> %v, <3 x i32> <i32 16, i32 5, i32 3>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> <i32 3, i32 2, i32 1>)
  %r = call <240 x float> @llvm.tensor.transpose.v240f32.v3i32(token %t, <3 x i32> <i32 2, i32 0, i32 1>)
  %tr = call token @llvm.tensor.typeinfo.v240f32.v3i32.v3i32.v3i32(<240 x float> %r, <3 x i32> <i32 3, i32 16, i32 5>, <3 x i32> <i32 2, i32 0, i32 1>, <3 x i32> <i32 1, i32 3, i32 2>)
  %untyped = call <240 x float> @llvm.tensor.transpose.v240f32.v3i32(token %t, <3 x i32> <i32 1, i32 2, i32 0>)
  %tm = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %m, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %swap = call <6 x float> @llvm.tensor.transpose.v6f32(token %tm)
  %tswap = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %swap, <2 x i32> <i32 3, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret void
}

; REMARK: remark: {{.*}}: llvm.tensor.pad: f32 3x5, stored 3x5 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.concat: f32 6x3, stored 6x3 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.concat: f32 2x4, stored 2x4 layout <0, 1> padding <0, 0>
; REMARK: remark: {{.*}}: llvm.tensor.tovector: f32 6, stored 6 layout <0> padding <0>
define void @pad_concat_tovector(<6 x float> %a, <12 x float> %b, <2 x float> %c) {
  %ta = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %a, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %pad = call <15 x float> @llvm.tensor.pad.v15f32.v2i32.v2i32.f32(token %ta, <2 x i32> <i32 1, i32 0>, <2 x i32> <i32 0, i32 2>, float 0.0)
  %tpad = call token @llvm.tensor.typeinfo.v15f32.v2i32.v2i32.v2i32(<15 x float> %pad, <2 x i32> <i32 3, i32 5>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %b, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %rows = call <18 x float> @llvm.tensor.concat.v18f32.i32(token %ta, token %tb, i32 0)
  %trows = call token @llvm.tensor.typeinfo.v18f32.v2i32.v2i32.v2i32(<18 x float> %rows, <2 x i32> <i32 6, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tc = call token @llvm.tensor.typeinfo.v2f32.v2i32.v2i32.v2i32(<2 x float> %c, <2 x i32> <i32 2, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %cols = call <8 x float> @llvm.tensor.concat.v8f32.i32(token %ta, token %tc, i32 1)
  %vec = call <6 x float> @llvm.tensor.tovector.v6f32(token %ta)
  ret void
}

; --- declarations ---
declare <24 x float> @llvm.tensor.broadcast.v24f32(token)
declare <6 x float> @llvm.tensor.broadcast.v6f32(token)
declare <6 x float> @llvm.tensor.broadcast.v6f32.f32(token, float)
declare <6 x float> @llvm.tensor.ceil.v6f32(token)
declare <18 x float> @llvm.tensor.concat.v18f32.i32(token, token, i32)
declare <8 x float> @llvm.tensor.concat.v8f32.i32(token, token, i32)
declare <18 x float> @llvm.tensor.contract.v18f32.v2i32.v2i32(token, token, <2 x i32>, <2 x i32>)
declare <1 x float> @llvm.tensor.contract.v1f32.v3i32.v3i32(token, token, <3 x i32>, <3 x i32>)
declare <147 x float> @llvm.tensor.convolution.v147f32.v2i32.v2i32.v2i32(token, token, <2 x i32>, <2 x i32>, <2 x i32>)
declare <3 x float> @llvm.tensor.convolution.v3f32.v1i32(token, token, <1 x i32>)
declare <6 x float> @llvm.tensor.convolution.v6f32.v2i32.v2i32.v2i32(token, token, <2 x i32>, <2 x i32>, <2 x i32>)
declare <8 x float> @llvm.tensor.convolution.v8f32(token, token)
declare <6 x float> @llvm.tensor.cos.v6f32(token)
declare <6 x float> @llvm.tensor.exp.v6f32(token)
declare <6 x float> @llvm.tensor.exp2.v6f32(token)
declare <6 x float> @llvm.tensor.fabs.v6f32(token)
declare <6 x float> @llvm.tensor.floor.v6f32(token)
declare token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.load.p0.v3i32.v3i32.v3i32.v3i32(ptr, <3 x i32>, <3 x i32>, <3 x i32>, <3 x i32>)
declare <6 x float> @llvm.tensor.log.v6f32(token)
declare <6 x float> @llvm.tensor.log10.v6f32(token)
declare <6 x float> @llvm.tensor.log2.v6f32(token)
declare ptr @llvm.tensor.matmul.p0(token, token)
declare <15 x float> @llvm.tensor.matmul.v15f32(token, token)
declare <30 x float> @llvm.tensor.matmul.v30f32(token, token)
declare <6 x bfloat> @llvm.tensor.matmul.v6bf16(token, token)
declare <6 x float> @llvm.tensor.matmul.v6f32(token, token)
declare <6 x i32> @llvm.tensor.matmul.v6i32(token, token)
declare <15 x float> @llvm.tensor.pad.v15f32.v2i32.v2i32.f32(token, <2 x i32>, <2 x i32>, float)
declare <8 x float> @llvm.tensor.reduce.add.v8f32.v2i32.v2i32(token, <2 x i32>, <2 x i32>)
declare <8 x i32> @llvm.tensor.reduce.and.v8i32.v2i32.v2i32(token, <2 x i32>, <2 x i32>)
declare <6 x float> @llvm.tensor.reduce.max.v6f32.v2i32.v2i32(token, <2 x i32>, <2 x i32>)
declare <6 x float> @llvm.tensor.reduce.min.v6f32.v2i32.v2i32(token, <2 x i32>, <2 x i32>)
declare <1 x float> @llvm.tensor.reduce.mul.v1f32.v2i32.v2i32(token, <2 x i32>, <2 x i32>)
declare <8 x i32> @llvm.tensor.reduce.or.v8i32.v2i32.v2i32(token, <2 x i32>, <2 x i32>)
declare <8 x i32> @llvm.tensor.reduce.xor.v8i32.v2i32.v2i32(token, <2 x i32>, <2 x i32>)
declare <6 x float> @llvm.tensor.relu.v6f32(token)
declare <6 x i32> @llvm.tensor.relu.v6i32(token)
declare <24 x float> @llvm.tensor.reshape.block.v24f32.v2i32(token, <2 x i32>)
declare <24 x float> @llvm.tensor.reshape.permute.v24f32(token)
declare <6 x float> @llvm.tensor.sigmoid.v6f32(token)
declare <6 x float> @llvm.tensor.sin.v6f32(token)
declare <8 x i32> @llvm.tensor.smma.v8i32(token, token, token)
declare <9 x i32> @llvm.tensor.smma.v9i32(token, token, token)
declare <6 x float> @llvm.tensor.sqrt.v6f32(token)
declare void @llvm.tensor.store.p0.v2i32(ptr, token, <2 x i32>)
declare void @llvm.tensor.store.p0.v3i32(ptr, token, <3 x i32>)
declare <9 x i32> @llvm.tensor.summa.v9i32(token, token, token)
declare <6 x float> @llvm.tensor.tanh.v6f32(token)
declare <6 x float> @llvm.tensor.tovector.v6f32(token)
declare <240 x float> @llvm.tensor.transpose.v240f32.v3i32(token, <3 x i32>)
declare <6 x float> @llvm.tensor.transpose.v6f32(token)
declare token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v120f32.v3i32.v3i32.v3i32(<120 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v12bf16.v2i32.v2i32.v2i32(<12 x bfloat>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v12i8.v2i32.v2i32.v2i32(<12 x i8>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v15f32.v2i32.v2i32.v2i32(<15 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v16f32.v4i32.v4i32.v4i32(<16 x float>, <4 x i32>, <4 x i32>, <4 x i32>)
declare token @llvm.tensor.typeinfo.v16i16.v3i32.v3i32.v3i32(<16 x i16>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v18f32.v2i32.v2i32.v2i32(<18 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v18f32.v4i32.v4i32.v4i32(<18 x float>, <4 x i32>, <4 x i32>, <4 x i32>)
declare token @llvm.tensor.typeinfo.v20f32.v2i32.v2i32.v2i32(<20 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v240f32.v3i32.v3i32.v3i32(<240 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v24f32.v2i32.v2i32.v2i32(<24 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v24f32.v3i32.v3i32.v3i32(<24 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v24f32.v4i32.v4i32.v4i32(<24 x float>, <4 x i32>, <4 x i32>, <4 x i32>)
declare token @llvm.tensor.typeinfo.v24i32.v2i32.v2i32.v2i32(<24 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v24i8.v3i32.v3i32.v3i32(<24 x i8>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v2bf16.v1i32.v1i32.v1i32(<2 x bfloat>, <1 x i32>, <1 x i32>, <1 x i32>)
declare token @llvm.tensor.typeinfo.v2f16.v1i32.v1i32.v1i32(<2 x half>, <1 x i32>, <1 x i32>, <1 x i32>)
declare token @llvm.tensor.typeinfo.v2f32.v1i32.v1i32.v1i32(<2 x float>, <1 x i32>, <1 x i32>, <1 x i32>)
declare token @llvm.tensor.typeinfo.v2f32.v2i32.v2i32.v2i32(<2 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v2f64.v1i32.v1i32.v1i32(<2 x double>, <1 x i32>, <1 x i32>, <1 x i32>)
declare token @llvm.tensor.typeinfo.v2i16.v1i32.v1i32.v1i32(<2 x i16>, <1 x i32>, <1 x i32>, <1 x i32>)
declare token @llvm.tensor.typeinfo.v2i32.v1i32.v1i32.v1i32(<2 x i32>, <1 x i32>, <1 x i32>, <1 x i32>)
declare token @llvm.tensor.typeinfo.v2i64.v1i32.v1i32.v1i32(<2 x i64>, <1 x i32>, <1 x i32>, <1 x i32>)
declare token @llvm.tensor.typeinfo.v2i8.v1i32.v1i32.v1i32(<2 x i8>, <1 x i32>, <1 x i32>, <1 x i32>)
declare token @llvm.tensor.typeinfo.v3f32.v1i32.v1i32.v1i32(<3 x float>, <1 x i32>, <1 x i32>, <1 x i32>)
declare token @llvm.tensor.typeinfo.v3f32.v2i32.v2i32.v2i32(<3 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v3f32.v3i32.v3i32.v3i32(<3 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v40f32.v3i32.v3i32.v3i32(<40 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v50f32.v4i32.v4i32.v4i32(<50 x float>, <4 x i32>, <4 x i32>, <4 x i32>)
declare token @llvm.tensor.typeinfo.v54f32.v4i32.v4i32.v4i32(<54 x float>, <4 x i32>, <4 x i32>, <4 x i32>)
declare token @llvm.tensor.typeinfo.v60f32.v3i32.v3i32.v3i32(<60 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v6f32.v4i32.v4i32.v4i32(<6 x float>, <4 x i32>, <4 x i32>, <4 x i32>)
declare token @llvm.tensor.typeinfo.v6i32.v2i32.v2i32.v2i32(<6 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v8bf16.v2i32.v2i32.v2i32(<8 x bfloat>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v8f32.v2i32.v2i32.v2i32(<8 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v8f32.v3i32.v3i32.v3i32(<8 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v8i16.v2i32.v2i32.v2i32(<8 x i16>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v8i32.v3i32.v3i32.v3i32(<8 x i32>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v8i8.v2i32.v2i32.v2i32(<8 x i8>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v9i32.v2i32.v2i32.v2i32(<9 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <9 x i32> @llvm.tensor.umma.v9i32(token, token, token)
declare <9 x i32> @llvm.tensor.usmma.v9i32(token, token, token)
declare token @llvm.vector.totensor.v6f32.v2i32.v2i32.v2i32(<6 x float>, <2 x i32>, <2 x i32>, <2 x i32>)

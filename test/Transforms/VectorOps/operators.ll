; tlx-vector-ops: C vector operators on tensor values become TLX ops with
; token operands of one tensor type per group of connected instructions
; (the first typeinfo naming one of their values, else 1-D): splats are
; broadcast(t, s), compares + C's sext are icmp/fcmp ops, selects read the
; compare's op, fmuladd is fmul + fadd, C stores are tensor.store.
; RUN: %opt_tlx -passes=tlx-vector-ops -pass-remarks=tlx -S %s -o - 2>%t.rem | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.rem
; RUN: %opt_tlx -passes='tlx-vector-ops,tlx-verify' -disable-output %s

; REMARK: fmul: C vector code on a 2x4 f32 tensor, computed as a TLX op
; REMARK: fadd: C vector code on a 2x4 f32 tensor, computed as a TLX op

; z = relu(x) * 0.5 + b, typed by the typeinfo of the sum; the argument b
; is named where it is defined (the function's entry).
; CHECK-LABEL: define void @scale_bias(
; CHECK: %[[TB:.*]] = call token @llvm.tensor.typeinfo.v8f32.v2i32.v2i32.v2i32(<8 x float> %b,
; CHECK: %[[R:.*]] = call <8 x float> @llvm.tensor.relu.v8f32(token %ta)
; CHECK: %[[TR:.*]] = call token @llvm.tensor.typeinfo.v8f32.v2i32.v2i32.v2i32(<8 x float> %[[R]], <2 x i32> <i32 2, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
; CHECK: %[[H:.*]] = call <8 x float> @llvm.tensor.broadcast.v8f32.f32(token %[[TR]], float 5.000000e-01)
; CHECK: %[[TH:.*]] = call token @llvm.tensor.typeinfo.v8f32.v2i32.v2i32.v2i32(<8 x float> %[[H]],
; CHECK: %[[M:.*]] = call <8 x float> @llvm.tensor.fmul.v8f32(token %[[TR]], token %[[TH]])
; CHECK: %[[TM:.*]] = call token @llvm.tensor.typeinfo.v8f32.v2i32.v2i32.v2i32(<8 x float> %[[M]],
; CHECK: %[[Z:.*]] = call <8 x float> @llvm.tensor.fadd.v8f32(token %[[TM]], token %[[TB]])
; CHECK: call token @llvm.tensor.typeinfo{{.*}}(<8 x float> %[[Z]], <2 x i32> <i32 2, i32 4>
; CHECK-NOT: fmuladd
; CHECK: ret void
define void @scale_bias(ptr %a, <8 x float> %b, ptr %out) {
  %ta = call token @llvm.tensor.load(ptr elementtype(float) %a, <2 x i32> <i32 2, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <8 x float> @llvm.tensor.relu.v8f32(token %ta)
  %z = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %r, <8 x float> <float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5>, <8 x float> %b)
  %tz = call token @llvm.tensor.typeinfo.v8f32(<8 x float> %z, <2 x i32> <i32 2, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store(ptr elementtype(float) %out, token %tz, <2 x i32> zeroinitializer)
  ret void
}

; m = a < b ? a : b (the select reads the compare's op); c = sext(a < b);
; a C store of the op result.
; CHECK-LABEL: define void @compare_select(
; CHECK: %[[C:.*]] = call <4 x i32> @llvm.tensor.icmp.v4i32.i32(token %[[TA:.*]], token %[[TB:.*]], i32 40)
; CHECK: %[[TC:.*]] = call token @llvm.tensor.typeinfo.v4i32.v1i32.v1i32.v1i32(<4 x i32> %[[C]], <1 x i32> <i32 4>,
; CHECK: %[[S:.*]] = call <4 x i32> @llvm.tensor.select.v4i32(token %[[TC]], token %[[TA]], token %[[TB]])
; CHECK: call void @llvm.tensor.store.p0.v1i32(ptr elementtype(i32) %out, token %{{.*}}, <1 x i32> zeroinitializer)
; CHECK: call void @llvm.tensor.store.p0.v1i32(ptr elementtype(i32) %mask, token %[[TC]], <1 x i32> zeroinitializer)
; CHECK-NOT: icmp slt <4 x i32>
; CHECK: ret void
define void @compare_select(ptr %pa, ptr %pb, ptr %out, ptr %mask) {
  %ta = call token @llvm.tensor.load.b(ptr elementtype(i32) %pa, <1 x i32> <i32 4>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.load.b(ptr elementtype(i32) %pb, <1 x i32> <i32 4>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  %a = call <4 x i32> @llvm.tensor.relu.v4i32(token %ta)
  %b = call <4 x i32> @llvm.tensor.relu.v4i32(token %tb)
  %lt = icmp slt <4 x i32> %a, %b
  %m = select <4 x i1> %lt, <4 x i32> %a, <4 x i32> %b
  %c = sext <4 x i1> %lt to <4 x i32>
  store <4 x i32> %m, ptr %out
  store <4 x i32> %c, ptr %mask
  ret void
}

; Conversions and t[i] = x on an op result.
; CHECK-LABEL: define void @convert_insert(
; CHECK: %[[D:.*]] = call <4 x double> @llvm.tensor.fpext.v4f64(token %{{.*}})
; CHECK: %[[I:.*]] = call <4 x i16> @llvm.tensor.fptosi.v4i16(token %{{.*}})
; CHECK: call <4 x i16> @llvm.tensor.insertelement.v4i16.i16.i32(token %{{.*}}, i16 7, i32 %n)
; CHECK: ret void
define void @convert_insert(ptr %pa, ptr %d, ptr %i, i32 %n) {
  %ta = call token @llvm.tensor.load(ptr elementtype(float) %pa, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %a = call <4 x float> @llvm.tensor.sqrt.v4f32(token %ta)
  %ad = fpext <4 x float> %a to <4 x double>
  %ai = fptosi <4 x float> %a to <4 x i16>
  %w = insertelement <4 x i16> %ai, i16 7, i32 %n
  store <4 x double> %ad, ptr %d
  store <4 x i16> %w, ptr %i
  ret void
}

; Small vectors that TLX neither makes nor reads stay C code.
; CHECK-LABEL: define <4 x float> @plain_c(
; CHECK-NEXT: fadd <4 x float> %x, %y
; CHECK-NEXT: ret
define <4 x float> @plain_c(<4 x float> %x, <4 x float> %y) {
  %s = fadd <4 x float> %x, %y
  ret <4 x float> %s
}

declare token @llvm.tensor.load(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.load.b(ptr, <1 x i32>, <1 x i32>, <1 x i32>, <1 x i32>)
declare <8 x float> @llvm.tensor.relu.v8f32(token)
declare <4 x i32> @llvm.tensor.relu.v4i32(token)
declare <4 x float> @llvm.tensor.sqrt.v4f32(token)
declare token @llvm.tensor.typeinfo.v8f32(<8 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store(ptr, token, <2 x i32>)
declare <8 x float> @llvm.fmuladd.v8f32(<8 x float>, <8 x float>, <8 x float>)

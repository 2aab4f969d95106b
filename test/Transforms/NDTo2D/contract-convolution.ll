; tlx-nd-to-2d: contract becomes one 2-D matmul on collapsed views;
; convolution becomes im2col + a 2-D matmul per image and output row; a
; 1x1 convolution with unit strides one 2-D matmul per image over its
; pixels (kernel x image for NCHW, image x kernel^T for channels-last).
; RUN: %opt_tlx -passes=tlx-nd-to-2d -pass-remarks=tlx -S %s -o - 2>%t.rem | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.rem

; REMARK: contract: 3x4x5 x 4x5x6 -> one 3x20x6 (MxKxN) 2-D matmul
; REMARK: contract: 3x4x5 x 5x4x6 -> one 3x20x6 (MxKxN) 2-D matmul; transposed first: op2
; REMARK: convolution: 2x3x7x8 * 4x3x3x2 -> 2x4x3x7 as im2col + 4x18x7 (MxKxN) 2-D matmul per output row
; REMARK: convolution: 2x3x7x8 * 4x3x1x1 -> 2x4x7x8 (1x1, unit strides) as one 4x3x56 (MxKxN) 2-D matmul per image over its pixels, no im2col
; REMARK: convolution: 2x3x7x8 * 4x3x1x1 -> 2x4x7x8 (1x1, unit strides) as one 56x3x4 (MxKxN) 2-D matmul per image over its pixels (channels last: pixels x channels), no im2col

; [3,4,5] x [4,5,6] over A's dims 1,2 and B's dims 0,1: [3,20] x [20,6].
; CHECK-LABEL: define void @contract_direct(
; CHECK: %[[A:.*]] = call token @llvm.tensor.load{{.*}}(ptr elementtype(float) %a, <2 x i32> <i32 3, i32 20>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 20>)
; CHECK: %[[B:.*]] = call token @llvm.tensor.load{{.*}}(ptr elementtype(float) %b, <2 x i32> <i32 20, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 6>)
; CHECK: %[[M:.*]] = call <18 x float> @llvm.tensor.matmul{{.*}}(token %[[A]], token %[[B]])
; CHECK-NOT: call {{.*}}@llvm.tensor.contract
define void @contract_direct(ptr %a, ptr %b, ptr %c) {
  %ta = call token @llvm.tensor.load.p0.v3i32(ptr elementtype(float) %a, <3 x i32> <i32 3, i32 4, i32 5>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer, <3 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.load.p0.v3i32(ptr elementtype(float) %b, <3 x i32> <i32 4, i32 5, i32 6>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer, <3 x i32> zeroinitializer)
  %r = call <18 x float> @llvm.tensor.contract.v18f32(token %ta, token %tb, <2 x i32> <i32 1, i32 2>, <2 x i32> <i32 0, i32 1>)
  %tr = call token @llvm.tensor.typeinfo.v18f32(<18 x float> %r, <2 x i32> <i32 3, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.v2(ptr elementtype(float) %c, token %tr, <2 x i32> zeroinitializer)
  ret void
}

; B's contracted dims (1, 0) do not nest: B is copied as [4,5,6] order
; <1,0,2> first.
; CHECK-LABEL: define void @contract_packed(
; CHECK: call <120 x float> @llvm.tensor.transpose{{.*}}(token %tb, <3 x i32> <i32 1, i32 0, i32 2>)
; CHECK: call <18 x float> @llvm.tensor.matmul
define void @contract_packed(ptr %a, ptr %b, ptr %c) {
  %ta = call token @llvm.tensor.load.p0.v3i32(ptr elementtype(float) %a, <3 x i32> <i32 3, i32 4, i32 5>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer, <3 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.load.p0.v3i32(ptr elementtype(float) %b, <3 x i32> <i32 5, i32 4, i32 6>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer, <3 x i32> zeroinitializer)
  %r = call <18 x float> @llvm.tensor.contract.v18f32(token %ta, token %tb, <2 x i32> <i32 1, i32 2>, <2 x i32> <i32 1, i32 0>)
  %tr = call token @llvm.tensor.typeinfo.v18f32(<18 x float> %r, <2 x i32> <i32 3, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.v2(ptr elementtype(float) %c, token %tr, <2 x i32> zeroinitializer)
  ret void
}

; in [2,3,7,8] * kernel [4,3,3,2], strides <2,1>, kernel dilation <1,1>
; -> [2,4,3,7]: per (n, output row) an im2col of 18 x 7 and a 4x7x18 matmul.
; CHECK-LABEL: define void @conv(
; CHECK: %tlx.pack = alloca [126 x float]
; CHECK: tlx.conv.d0.body:
; CHECK: tlx.conv.d1.body:
; CHECK: tlx.im2col.d0.body:
; CHECK: store float %{{.*}}, ptr %{{.*}}
; CHECK: tlx.im2col.d0.exit:
; CHECK: %[[K:.*]] = call token @llvm.tensor.load{{.*}}(ptr elementtype(float) %k, <2 x i32> <i32 4, i32 18>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 18>)
; CHECK: %[[COL:.*]] = call token @llvm.tensor.load{{.*}}(ptr elementtype(float) %tlx.pack, <2 x i32> <i32 18, i32 7>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 7>)
; CHECK: %[[MM:.*]] = call <28 x float> @llvm.tensor.matmul{{.*}}(token %[[K]], token %[[COL]])
; CHECK: call token @llvm.tensor.typeinfo{{.*}}(<28 x float> %[[MM]], <2 x i32> <i32 4, i32 7>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
; CHECK: call void @llvm.tensor.store{{.*}}(ptr elementtype(float) %{{.*}}, token %{{.*}}, <2 x i32> <i32 0, i32 21>)
; CHECK-NOT: call {{.*}}@llvm.tensor.convolution
define void @conv(ptr %in, ptr %k, ptr %out) {
  %ti = call token @llvm.tensor.load.p0.v4i32(ptr elementtype(float) %in, <4 x i32> <i32 2, i32 3, i32 7, i32 8>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer, <4 x i32> zeroinitializer)
  %tk = call token @llvm.tensor.load.p0.v4i32(ptr elementtype(float) %k, <4 x i32> <i32 4, i32 3, i32 3, i32 2>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer, <4 x i32> zeroinitializer)
  %r = call <168 x float> @llvm.tensor.convolution.v168f32(token %ti, token %tk, <2 x i32> <i32 2, i32 1>, <2 x i32> <i32 1, i32 1>, <2 x i32> <i32 1, i32 1>)
  %tr = call token @llvm.tensor.typeinfo.v168f32(<168 x float> %r, <4 x i32> <i32 2, i32 4, i32 3, i32 7>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  call void @llvm.tensor.store.v4(ptr elementtype(float) %out, token %tr, <4 x i32> zeroinitializer)
  ret void
}

; NCHW: per image n, kernel [4, 3] x in[n] as [3, 56] -> out[n] as [4, 56].
; CHECK-LABEL: define void @conv_1x1(
; CHECK-NOT: tlx.im2col
; CHECK: tlx.conv.d0.body:
; CHECK: %[[IN:.*]] = getelementptr inbounds float, ptr %in, i64 %{{.*}}
; CHECK: %[[OUT:.*]] = getelementptr inbounds float, ptr %out, i64 %{{.*}}
; CHECK: %[[K:.*]] = call token @llvm.tensor.load{{.*}}(ptr elementtype(float) %k, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 3>)
; CHECK: %[[X:.*]] = call token @llvm.tensor.load{{.*}}(ptr elementtype(float) %[[IN]], <2 x i32> <i32 3, i32 56>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 56>)
; CHECK: %[[MM:.*]] = call <224 x float> @llvm.tensor.matmul{{.*}}(token %[[K]], token %[[X]])
; CHECK: call void @llvm.tensor.store{{.*}}(ptr elementtype(float) %[[OUT]], token %{{.*}}, <2 x i32> <i32 0, i32 56>)
; CHECK-NOT: call {{.*}}@llvm.tensor.convolution
define void @conv_1x1(ptr %in, ptr %k, ptr %out) {
  %ti = call token @llvm.tensor.load.p0.v4i32(ptr elementtype(float) %in, <4 x i32> <i32 2, i32 3, i32 7, i32 8>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer, <4 x i32> zeroinitializer)
  %tk = call token @llvm.tensor.load.p0.v4i32(ptr elementtype(float) %k, <4 x i32> <i32 4, i32 3, i32 1, i32 1>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer, <4 x i32> zeroinitializer)
  %r = call <448 x float> @llvm.tensor.convolution.v448f32(token %ti, token %tk, <2 x i32> <i32 1, i32 1>, <2 x i32> <i32 1, i32 1>, <2 x i32> <i32 1, i32 1>)
  %tr = call token @llvm.tensor.typeinfo.v448f32(<448 x float> %r, <4 x i32> <i32 2, i32 4, i32 7, i32 8>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  call void @llvm.tensor.store.v4(ptr elementtype(float) %out, token %tr, <4 x i32> zeroinitializer)
  ret void
}

; Channels-last (storage [2, 7, 8, 3], layout <0,2,3,1>, both sides): per
; image, in[n] as [56, 3] x kernel^T [3, 4] -> out[n] as [56, 4].
; CHECK-LABEL: define void @conv_1x1_channels_last(
; CHECK: %[[X:.*]] = call token @llvm.tensor.load{{.*}}(ptr elementtype(float) %{{.*}}, <2 x i32> <i32 56, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 3>)
; CHECK: %[[KT:.*]] = call token @llvm.tensor.load{{.*}}(ptr elementtype(float) %k, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 1, i32 0>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 3>)
; CHECK: %[[MM:.*]] = call <224 x float> @llvm.tensor.matmul{{.*}}(token %[[X]], token %[[KT]])
; CHECK: call token @llvm.tensor.typeinfo{{.*}}(<224 x float> %[[MM]], <2 x i32> <i32 56, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
define void @conv_1x1_channels_last(ptr %in, ptr %k, ptr %out) {
  %ti = call token @llvm.tensor.load.p0.v4i32(ptr elementtype(float) %in, <4 x i32> <i32 2, i32 7, i32 8, i32 3>, <4 x i32> <i32 0, i32 2, i32 3, i32 1>, <4 x i32> zeroinitializer, <4 x i32> zeroinitializer)
  %tk = call token @llvm.tensor.load.p0.v4i32(ptr elementtype(float) %k, <4 x i32> <i32 4, i32 3, i32 1, i32 1>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer, <4 x i32> zeroinitializer)
  %r = call <448 x float> @llvm.tensor.convolution.v448f32(token %ti, token %tk, <2 x i32> <i32 1, i32 1>, <2 x i32> <i32 1, i32 1>, <2 x i32> <i32 1, i32 1>)
  %tr = call token @llvm.tensor.typeinfo.v448f32(<448 x float> %r, <4 x i32> <i32 2, i32 7, i32 8, i32 4>, <4 x i32> <i32 0, i32 2, i32 3, i32 1>, <4 x i32> zeroinitializer)
  call void @llvm.tensor.store.v4(ptr elementtype(float) %out, token %tr, <4 x i32> zeroinitializer)
  ret void
}

declare token @llvm.tensor.load.p0.v3i32(ptr, <3 x i32>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.load.p0.v4i32(ptr, <4 x i32>, <4 x i32>, <4 x i32>, <4 x i32>)
declare <18 x float> @llvm.tensor.contract.v18f32(token, token, <2 x i32>, <2 x i32>)
declare <168 x float> @llvm.tensor.convolution.v168f32(token, token, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v18f32(<18 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <448 x float> @llvm.tensor.convolution.v448f32(token, token, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v448f32(<448 x float>, <4 x i32>, <4 x i32>, <4 x i32>)
declare token @llvm.tensor.typeinfo.v168f32(<168 x float>, <4 x i32>, <4 x i32>, <4 x i32>)
declare void @llvm.tensor.store.v2(ptr, token, <2 x i32>)
declare void @llvm.tensor.store.v4(ptr, token, <4 x i32>)

; AMX kernels tuned for a CPU whose scheduling model runs the post-RA
; scheduler (-march=native -mtune=znver5 on an AMX Xeon): LLVM 19's and
; 22's anti-dependence breaker renames a tile register after the tile
; configuration was written, so a kernel loads tmm5 where ldtilecfg
; configured tmm0-tmm4 (SIGILL on the hardware). tlx-backend-workarounds
; tunes such functions for their target CPU instead (or the generic model,
; when that CPU's model schedules after register allocation too); every
; tile the kernels use is then configured. The second RUN shows the
; backend's bug without the workaround: when it fails, LLVM fixed it and
; the workaround can go (Compat.h).
; RUN: %opt_tlx -passes='tlx-test-gemm,default<O2>,tlx-backend-workarounds' %s -S -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %llc -O2 %t.ll -o %t.s && python3 %S/../tools/amx_tile_config.py %t.s
; RUN: %opt_tlx -passes='tlx-test-gemm,default<O2>' %s -o - | %llc -O2 -o %t.bug.s
; RUN: not python3 %S/../tools/amx_tile_config.py %t.bug.s | FileCheck %s --check-prefix=BUG

target triple = "x86_64-unknown-linux-gnu"

declare void @tlx_test_gemm(...)

; s8 x s8 -> i32, 37 x 50 x 100: edge tiles in both dimensions.
define void @gemm_znver5(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 37, i64 50, i64 100, i64 33280,
                                 ptr %a, i64 100, i64 1, ptr %b, i64 50, i64 1,
                                 ptr %c, i64 50, i64 1)
  ret void
}

; The target CPU's own model schedules after register allocation too.
define void @gemm_znver4_cpu(ptr %a, ptr %b, ptr %c) #1 {
  call void (...) @tlx_test_gemm(i64 37, i64 50, i64 100, i64 33280,
                                 ptr %a, i64 100, i64 1, ptr %b, i64 50, i64 1,
                                 ptr %c, i64 50, i64 1)
  ret void
}

; No tiles: the user's tuning stays.
define i32 @scalar(i32 %x) #0 {
  %y = mul i32 %x, 3
  ret i32 %y
}

attributes #0 = { nounwind "target-cpu"="sapphirerapids" "tune-cpu"="znver5" }
attributes #1 = { nounwind "target-cpu"="znver4" "target-features"="+amx-tile,+amx-int8,+amx-bf16" }

; The callers keep the user's tuning; the kernels get their target CPU's,
; or the generic model's.
; CHECK-LABEL: define i32 @scalar(
; CHECK-SAME: #[[CALLER:[0-9]+]]
; CHECK-DAG: attributes #[[CALLER]] = {{.*}}"tune-cpu"="znver5"
; CHECK-DAG: attributes #{{[0-9]+}} = { noinline nounwind "target-cpu"="sapphirerapids" "target-features"="{{[^"]*}}" "tune-cpu"="sapphirerapids" }
; CHECK-DAG: attributes #{{[0-9]+}} = { noinline nounwind "target-cpu"="znver4" "target-features"="{{[^"]*}}" "tune-cpu"="generic" }

; BUG: uses tmm{{[0-9]}}, which its ldtilecfg does not configure

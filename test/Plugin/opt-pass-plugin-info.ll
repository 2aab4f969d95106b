; opt finds the TLX passes through llvmGetPassPluginInfo and runs them; a
; module without TLX calls passes through unchanged.
; RUN: %opt_tlx -passes=tlx-recognize,tlx-verify,tlx-check-lowered -debug-pass-manager -disable-output %s 2>&1 | FileCheck %s
; RUN: not %opt_tlx -passes=tlx-nonexistent -disable-output %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
; CHECK: Running pass: tlx::RecognizePass on [module]
; CHECK: Running pass: tlx::VerifyPass on [module]
; CHECK: Running pass: tlx::CheckLoweredPass on [module]
; UNKNOWN: unknown pass name 'tlx-nonexistent'

define i32 @main() {
  ret i32 0
}

//===- ClangBridge.cpp - Loads the clang side when the host is clang ------===//
//
// Debian's libclang-cpp.so.19 re-registers command-line options that
// libLLVM.so.19 also defines, so opt aborts if libtlx.so pulls libclang-cpp in
// ("Option 'pgo-cold-func-opt' registered more than once"). libtlx.so
// therefore depends on LLVM only; when it is loaded into clang
// (-fplugin=libtlx.so), this constructor loads the clang plugin action from
// the companion libtlx-clang.so beside it, which registers itself with
// clang's plugin registry before clang looks at it.
//
//===----------------------------------------------------------------------===//

#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>
#include <string>

namespace {

bool hostIsClang() {
  // clang::PluginASTAction::anchor() exists only where libclang-cpp is loaded.
  return dlsym(RTLD_DEFAULT, "_ZN5clang15PluginASTAction6anchorEv") != nullptr;
}

std::string companionPath() {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&companionPath), &Info) ||
      !Info.dli_fname)
    return "libtlx-clang.so";
  std::string Self = Info.dli_fname;
  std::string::size_type Slash = Self.rfind('/');
  std::string Dir = Slash == std::string::npos ? "." : Self.substr(0, Slash);
  return Dir + "/libtlx-clang.so";
}

__attribute__((constructor)) void loadClangSide() {
  if (!hostIsClang())
    return;
  std::string Path = companionPath();
  if (!dlopen(Path.c_str(), RTLD_NOW | RTLD_GLOBAL))
    llvm::WithColor::error(llvm::errs(), "tlx")
        << "cannot load the clang side of the plugin: " << dlerror() << "\n";
}

} // namespace

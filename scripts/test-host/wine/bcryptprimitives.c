// A stand-in for Windows' bcryptprimitives.dll, which wine 8 lacks: ripgrep 15 (rg.exe of
// @vscode/ripgrep-win32-x64) imports ProcessPrng from it and does not start without it.
// scripts/test-host/wine-unit.mjs builds it with Debian's mingw into the test prefix's system32.
#include <windows.h>
#include <bcrypt.h>

// Fills data with random bytes from the system's generator, as Windows' ProcessPrng does.
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
  while (length > 0) {
    ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
    if (BCryptGenRandom(NULL, data, chunk, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0) {
      return FALSE;
    }
    data += chunk;
    length -= chunk;
  }
  return TRUE;
}

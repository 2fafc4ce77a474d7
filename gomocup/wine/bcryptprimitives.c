/* A stand-in for Windows' bcryptprimitives.dll, for running the brain under Wine only: Rust's standard
 * library draws its random seeds from ProcessPrng, which Windows 10 and 11 have and Wine 8 lacks. Built
 * and placed beside the .exe by the Wine test (.ci/run); never packed in the submission. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length); /* RtlGenRandom, in advapi32 */

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG part = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, part)) {
            return FALSE;
        }
        data += part;
        length -= part;
    }
    return TRUE;
}

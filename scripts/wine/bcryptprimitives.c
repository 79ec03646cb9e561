/*
 * A stand-in for bcryptprimitives.dll, for running the Windows build under Wine 8.0 only.
 *
 * Rust's Windows standard library takes its random bytes (HashMap seeds) from ProcessPrng in
 * bcryptprimitives.dll, which every supported Windows has but Debian's Wine 8.0 lacks, so the
 * .exe would not even start there. scripts/wine_match.sh builds this file with mingw-w64 and
 * puts the DLL next to the .exe in its own test directory; it is never shipped to Windows users.
 * ProcessPrng is served from RtlGenRandom (advapi32's SystemFunction036), which Wine has.
 */
#include <windows.h>
#include <ntsecapi.h>

/* Fill `data` with `length` random bytes; like the real one, it only fails if the system
 * generator does. RtlGenRandom takes a ULONG length, so long requests go in pieces. */
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG piece = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!RtlGenRandom(data, piece))
            return FALSE;
        data += piece;
        length -= piece;
    }
    return TRUE;
}

/* The instruction-sequence predicates of Cortex-A53 erratum 843419, shared by its rule and behaviour and exported for its tests. */
#ifndef EH_ERRATA_A53_843419_H
#define EH_ERRATA_A53_843419_H

#include <stdbool.h>
#include <stdint.h>

/* Erratum 843419 needs its ADRP at one of the last two words of a 4 KB page. */
#define EH_A53_843419_PAGE_OFFSET(addr) ((addr) & 0xfff)
#define EH_A53_843419_AT(addr) (EH_A53_843419_PAGE_OFFSET(addr) >= 0xff8)

/*
 * Erratum 843419, sequence 1 of the Cortex-A53 errata notice, the ADRP's address
 * aside: w[0..n-1] (n = 3 or 4) are the words from the ADRP on, in program order.
 * 1. ADRP writing Rn;
 * 2. a load or store of one register (integer or vector, exclusive and literal
 *    forms included), an STP or STNP, or an Advanced SIMD ST1, that does not
 *    write Rn (no load into it, no writeback of it, no exclusive status in it);
 * 3. (n = 4) one instruction that is not a branch;
 * 4. a load or store of the "load/store register (unsigned immediate)" class
 *    with base Rn.
 * The notice also says instruction 3 does not write Rn; as the linkers'
 * workarounds (ld.lld, GNU ld), the predicate does not rely on it. That
 * instruction 2's access crosses a 64-bit (load) or 128-bit (store) boundary,
 * which the notice requires too, is known only when it runs.
 */
bool eh_a53_843419_sequence(const uint32_t *w, unsigned n);

/* Whether word is an ADRP, and the register it writes. */
bool eh_a53_adrp(uint32_t word, unsigned *rd);

#endif

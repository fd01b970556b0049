/* The instruction-sequence predicates of the Cortex-A53 errata modules, shared by their rules and behaviours and exported for their tests. */
#ifndef EH_MODELS_ERRATA_ARM_CORTEX_A53_H
#define EH_MODELS_ERRATA_ARM_CORTEX_A53_H

#include <stdbool.h>
#include <stdint.h>

#include "eh/insn.h"

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

/*
 * Erratum 835769: whether mem, the instruction directly before word in program
 * order, and word are the erratum's pair: mem a load, store or prefetch (by the
 * decoder's classes) and word a 64-bit multiply-accumulate (MADD, MSUB, SMADDL,
 * SMSUBL, UMADDL, UMSUBL) whose accumulator is not XZR (Ra = 31 is MUL, MNEG
 * and their long forms). A general-purpose load whose destination (either of
 * a pair's) the multiply-accumulate reads (as Rn, Rm or Ra) is not: the true
 * dependency holds the multiply-accumulate back until the load completes (the
 * exception GCC's -mfix-cortex-a53-835769 and GNU ld's --fix-cortex-a53-835769
 * make). A load into a SIMD&FP register never feeds it.
 */
bool eh_a53_835769_pair(const struct eh_insn *mem, uint32_t word);

/* Whether word is a multiply-accumulate erratum 835769 names, and its registers. */
bool eh_a53_mac64(uint32_t word, unsigned *rd, unsigned *rn, unsigned *rm, unsigned *ra);

#endif

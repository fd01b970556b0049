/* The instruction-sequence predicates of Cortex-A53 erratum 835769, shared by its rule and behaviour and exported for its tests. */
#ifndef EH_ERRATA_A53_835769_H
#define EH_ERRATA_A53_835769_H

#include <stdbool.h>
#include <stdint.h>

#include "eh/sys/rule.h"

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

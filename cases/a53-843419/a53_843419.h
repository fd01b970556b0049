/* Case a53-843419: the values its snippet loads, shared by the snippet and the judge. */
#ifndef EH_CASE_A53_843419_H
#define EH_CASE_A53_843419_H

/* What the load at the end of the sequence reads from `expected`, and what lies one page on. */
#define EH_A53_843419_EXPECTED 0x0843419000c0ffee
#define EH_A53_843419_DECOY 0x0843419000bad000

#endif

/* The errata behaviours that model tables refer to. */
#ifndef EH_MODELS_ERRATA_H
#define EH_MODELS_ERRATA_H

#include "eh/model.h"

extern const struct eh_erratum eh_erratum_tx2_219;

/* The list every ThunderX2-family model shares. */
extern const struct eh_erratum *const eh_tx2_family_errata[];

#endif

/* What model tables share: the errata behaviours they refer to, and the ThunderX2 family's identity. */
#ifndef EH_MODELS_ERRATA_H
#define EH_MODELS_ERRATA_H

#include "eh/model.h"

extern const struct eh_erratum eh_erratum_tx2_219;

/* The list every ThunderX2-family model shares. */
extern const struct eh_erratum *const eh_tx2_family_errata[];

/* The ID registers of the ThunderX2 core (models/cavium_thunderx2.c), Vulcan's too. */
extern const struct eh_id_reg eh_thunderx2_id_regs[];
#define EH_TX2_ID_SOURCE "no public TRM: Armv8.1-A requirements and the features Linux reports on CN99xx"

#endif

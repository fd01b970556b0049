/* What the ThunderX2-family model tables share: the core's identity registers. */
#ifndef EH_MODELS_TX2_FAMILY_H
#define EH_MODELS_TX2_FAMILY_H

#include "eh/model.h"

/* The ID registers of the ThunderX2 core (models/cavium_thunderx2.c), Vulcan's too. */
extern const struct eh_id_reg eh_thunderx2_id_regs[];
#define EH_TX2_ID_SOURCE "no public TRM: Armv8.1-A requirements and the features Linux reports on CN99xx"

#endif

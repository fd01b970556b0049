/* The format writers behind eh_report_write, one file each; internal to the library. */
#ifndef EH_REPORT_WRITERS_H
#define EH_REPORT_WRITERS_H

#include <stdio.h>

#include "eh/run.h"

void eh_report__junit(FILE *f, const struct eh_results *res);
void eh_report__json(FILE *f, const struct eh_results *res);

#endif

/* Static rules as the audit and the tool see them: exactly what the modules give (eh/sys/rule.h), nothing added. */
#ifndef EH_RULE_H
#define EH_RULE_H

#include "eh/sys/rule.h"

#endif

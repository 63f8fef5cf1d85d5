// SPDX-License-Identifier: GPL-2.0
/* The one global every layer may read (status.h): the command's -v count. */
#include "status.h"

int mt_verbose;

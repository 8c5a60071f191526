#ifndef NSE_CMAGIC_SHIM_H
#define NSE_CMAGIC_SHIM_H
#include <magic.h>
#endif

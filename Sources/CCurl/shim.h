#ifndef NSE_CCURL_SHIM_H
#define NSE_CCURL_SHIM_H
#include <curl/curl.h>
// Typed wrappers over curl's variadic calls live here (NSECurl).
#endif

/*
 * price_import.h - a price table from a SkyPilot catalog (price_import.c).
 */
#ifndef TC_PRICE_IMPORT_H
#define TC_PRICE_IMPORT_H

#include "../model/types/offer.h"
#include "../util/diag.h"

#define PRICE_IMPORT_MAX_BYTES (64u << 20) /* largest CSV read */

/*
 * Convert a SkyPilot catalog vms.csv (columns found by header name) into a
 * price table of provider `provider` dated `today`, source = the file name.
 * The catalog GPU is deduced from AcceleratorName, GpuInfo's SizeInMiB and
 * the instance family; GCP accelerator rows (empty InstanceType) are added
 * to their host rows as gpu_part + host_part; one offer per (instance,
 * region), the cheapest zone.  Rows of accelerators without a catalog GPU
 * are skipped with one warning per accelerator name.  Bad rows are errors
 * "file:line: message".  Returns 0 or -1; *out is owned by the caller.
 */
int price_import_skypilot(const char *path, const char *provider,
			  const char *today, struct price_table *out,
			  struct tc_diag *warn, struct tc_diag *d);

#endif

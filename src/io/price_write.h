/*
 * price_write.h - a price table written back as a pricing file
 * (price_write.c).
 */
#ifndef TC_PRICE_WRITE_H
#define TC_PRICE_WRITE_H

#include <stdio.h>

#include "../model/types/offer.h"

/* Write `t` as a pricing YAML file (the format price_load_file reads).
 * Returns 0 or -1 (a write error). */
int price_table_write_yaml(const struct price_table *t, FILE *f);

#endif

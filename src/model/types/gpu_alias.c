/*
 * gpu_alias.c - common GPU names to catalog ids (gpu_alias.h).
 */
#include "gpu_alias.h"

#include <string.h>

/*
 * A bare family name means the part clouds rent most: the SXM board with
 * the largest memory (A100 80GB SXM4 in AWS p4de, GCP a2-ultragpu, Azure
 * ND A100 v4; H100 SXM5 in p5, a3, ND H100 v5).  Other names are
 * SkyPilot's accelerator names (its catalog vms.csv, AcceleratorName).
 */
const struct gpu_alias gpu_alias_table[] = {
	{ "A100", "a100-80gb-sxm" },
	{ "A10080GB", "a100-80gb-sxm" },
	{ "A10040GB", "a100-40gb-sxm" },
	{ "H100", "h100-sxm" },
	{ "H100MEGA", "h100-sxm" },
	{ "H100NVL", "h100-nvl" },
	{ "H200", "h200-sxm" },
	{ "GH200", "gh200" },
	{ "B200", "b200" },
	{ "L40S", "l40s" },
	{ "L40", "l40" },
	{ "L4", "l4" },
	{ "A10G", "a10g" },
	{ "A10", "a10" },
	{ "A40", "a40" },
	{ "A6000", "rtx-a6000" },
	{ "RTXA6000", "rtx-a6000" },
	{ "RTX6000ADA", "rtx-6000-ada" },
	{ "RTX4090", "rtx-4090" },
	{ "T4", "t4" },
	{ "V10032GB", "v100-32gb-sxm2" },
	{ "MI300X", "mi300x" },
	{ "MI250X", "mi250x" },
	{ NULL, NULL },
};

void gpu_name_squash(const char *s, size_t len, char *buf, size_t size)
{
	size_t o = 0;
	for (size_t i = 0; i < len && s[i] && o + 1 < size; i++) {
		char c = s[i];
		if (c == '-' || c == '_' || c == ' ')
			continue;
		buf[o++] = (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
	}
	if (size)
		buf[o] = '\0';
}

const char *gpu_alias_id(const char *name)
{
	char key[64];
	gpu_name_squash(name, strlen(name), key, sizeof(key));
	for (size_t i = 0; gpu_alias_table[i].name; i++)
		if (!strcmp(key, gpu_alias_table[i].name))
			return gpu_alias_table[i].id;
	return NULL;
}

/*
 * sweep_ids.c - the catalog ids a sweep varies, checked before any row is
 * evaluated.
 *
 * A GPU, framework or preset id that names nothing makes every row it is in
 * invalid, whatever the other keys hold: such a sweep is refused at the
 * value, as `check` refuses it, rather than run into rows whose reasons all
 * repeat the catalog.
 */
#include "sweep_ids.h"

#include <string.h>

#include "fw_load.h"
#include "gpu_load.h"
#include "wl_common.h"

/* What the ids are looked up in. */
struct id_catalogs {
	const struct tc_datapath *dp; /* borrowed */
	struct gpu_catalog gpus;      /* owned */
	struct fw_catalog fws;        /* owned */
};

/* Each returns 0 when `id` names something, else -1 with the problem at
 * node `at` of `file` in d. */
typedef int (*id_check_fn)(const struct id_catalogs *c, const char *id, const char *file,
			   const struct yn_node *at, struct tc_diag *d);

static int gpu_known(const struct id_catalogs *c, const char *id, const char *file,
		     const struct yn_node *at, struct tc_diag *d)
{
	struct gpu g;
	char why[1024];
	if (!gpu_catalog_lookup(&c->gpus, id, &g, why, sizeof(why)))
		return 0;
	tc_diag_at(d, TC_EXIT_INPUT, file, at->line, at->col, "%s", why);
	return -1;
}

static int framework_known(const struct id_catalogs *c, const char *id, const char *file,
			   const struct yn_node *at, struct tc_diag *d)
{
	char why[1024];
	if (fw_catalog_find(&c->fws, id, why, sizeof(why)))
		return 0;
	tc_diag_at(d, TC_EXIT_INPUT, file, at->line, at->col, "%s", why);
	return -1;
}

/* A preset is known when its file is found and parses; its contents are
 * checked by the rows that load it. */
static int preset_known(const struct id_catalogs *c, const char *id, const char *file,
			const struct yn_node *at, struct tc_diag *d)
{
	struct yn_doc doc = { 0 };
	int rc = wlx_open_preset(c->dp, id, file, at, &doc, d);
	yn_doc_release(&doc);
	return rc ? -1 : 0;
}

/* The id kinds a sweep can vary, by dotted path. */
static const struct {
	const char *path;
	id_check_fn known;
} id_keys[] = {
	{ "plan.gpu", gpu_known },
	{ "plan.framework", framework_known },
	{ "model.preset", preset_known },
};

#define N_ID_KEYS (sizeof(id_keys) / sizeof(id_keys[0]))

int sweep_check_ids(const struct sweep *sw, const struct tc_datapath *dp, struct tc_diag *d)
{
	struct id_catalogs c = { .dp = dp };
	int rc = -1;
	if (gpu_catalog_load(dp, &c.gpus, d) || fw_catalog_load(dp, &c.fws, d))
		goto out;
	rc = 0;
	/* In the file's order: keys, then their values. */
	for (int k = 0; k < sw->nkeys; k++) {
		const struct sweep_key *key = &sw->key[k];
		for (size_t t = 0; t < N_ID_KEYS; t++) {
			if (strcmp(key->path, id_keys[t].path))
				continue;
			for (size_t i = 0; i < key->count; i++) {
				const struct yn_node *v = key->values[i];
				if (v->type != YN_SCALAR)
					continue; /* the row's loader says what is wrong */
				if (!wl_gpu_id_ok(v->str)) {
					/* Never echo control characters to a terminal. */
					char shown[64];
					tc_diag_at(d, TC_EXIT_INPUT, sw->file, v->line, v->col,
						   "%s '%s' is not a catalog id (expected letters, digits, "
						   "'.', '-', '_', and for a GPU ':PROFILE' for a MIG slice)",
						   key->path, yn_show_text(v->str, v->len, shown, sizeof(shown)));
					rc = -1;
				} else if (id_keys[t].known(&c, v->str, sw->file, v, d)) {
					rc = -1;
				}
			}
		}
	}
out:
	gpu_catalog_release(&c.gpus);
	fw_catalog_release(&c.fws);
	return rc;
}

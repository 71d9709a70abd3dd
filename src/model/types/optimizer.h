/*
 * optimizer.h - the registry of optimizers: every optimizer a workload may
 * name, with the bytes of state it keeps per parameter, the families whose
 * files accept it, and the source of each figure.
 *
 * OPTIMIZERS below is the one table.  From it come enum optimizer, the
 * names workload files and validation cases accept (io/wl_load.c,
 * io/wl_vision.c, io/wl_recsys.c through wlx_get_optimizer(); io/val_keys.c),
 * the names reports print, and every count of optimizer state: the language
 * model's memory (memory.c), the vision and recommender memory (vision.c,
 * recsys.c) and a checkpoint's size (campaign.c).  Adding an optimizer is
 * one row here.
 *
 * The fp32 master copy of the weights that mixed precision adds is not
 * optimizer state here: each family adds it with its weights.
 */
#ifndef TC_OPTIMIZER_H
#define TC_OPTIMIZER_H

/* The families whose workload files may name an optimizer: bit k is
 * enum wl_kind k (workload.h; workload.c checks the order). */
#define OPT_FOR_LLM (1u << 0)
#define OPT_FOR_VISION (1u << 1)
#define OPT_FOR_RECSYS (1u << 2)
#define OPT_FOR_ALL (OPT_FOR_LLM | OPT_FOR_VISION | OPT_FOR_RECSYS)

/*
 * X(ID, name, state_bytes, table_state_bytes, families, source)
 *  - state_bytes: bytes of state per trainable parameter (fp32 buffers),
 *    for dense parameters updated whole every step;
 *  - table_state_bytes: the same per element of a recommender's embedding
 *    table, whose rows are updated sparsely (only the rows looked up);
 *  - families: OPT_FOR_* bits of the workload families that accept it.
 * The enum's order is the order of the rows: keep new rows last.
 */
#define OPTIMIZERS(X) \
	X(ADAMW, "adamw", 8, 8, OPT_FOR_ALL, \
	  "two fp32 moments, m and v (Kingma & Ba 2015, algorithm 1; AdamW's " \
	  "decoupled decay keeps the same state, Loshchilov & Hutter 2019); ZeRO " \
	  "counts them with the fp32 master as K = 12 (Rajbhandari et al. SC'20, " \
	  "sec. 3.1); tables: both moments per element (FBGEMM's ADAM)") \
	X(SGD, "sgd", 4, 0, OPT_FOR_ALL, \
	  "one fp32 momentum buffer (torch.optim.SGD momentum_buffer; ResNet " \
	  "recipes train with momentum 0.9, Goyal et al. 2017); tables: sparse " \
	  "row updates keep no momentum (the DLRM reference's SGD on sparse " \
	  "embedding gradients, FBGEMM's EXACT_SGD)") \
	X(ADAFACTOR, "adafactor", 0.05, 0.05, OPT_FOR_LLM, \
	  "factored second moment: a row and a column vector per r x c matrix, " \
	  "(r + c) x 4 bytes, and no first moment (Shazeer & Stern 2018, secs. " \
	  "3 and 9); 0.05 B/param bounds it for matrices 160 or more wide") \
	X(LARS, "lars", 4, 4, OPT_FOR_VISION, \
	  "one fp32 momentum buffer: LARS is momentum SGD with a layer-wise " \
	  "rate (You et al. 2017, algorithm 1)") \
	X(ADAGRAD, "adagrad", 4, 4, OPT_FOR_RECSYS, \
	  "one fp32 accumulator of squared gradients (Duchi et al. 2011; " \
	  "torch.optim.Adagrad's state 'sum'); tables: one per element, an upper " \
	  "bound of FBGEMM's row-wise Adagrad (one per row)")

enum optimizer {
#define OPT_ENUM(id, ...) OPT_##id,
	OPTIMIZERS(OPT_ENUM)
#undef OPT_ENUM
	OPT_COUNT
};

/* The names in the order of the enum, NULL-terminated. */
extern const char *const opt_names[OPT_COUNT + 1];

/* Bytes of state optimizer o keeps per dense trainable parameter. */
double opt_state_bytes(enum optimizer o);
/* The same per element of an embedding table updated by sparse rows. */
double opt_table_state_bytes(enum optimizer o);
/* The name of o ("adamw"), or "optimizer" for a value out of range. */
const char *opt_name(enum optimizer o);

/*
 * The optimizers a workload file of family `kind` (an enum wl_kind) may
 * name, in the registry's order: their names into names[], NULL-terminated,
 * and their ids into ids[].  Returns how many there are.
 */
int opt_names_of_family(int kind, const char *names[OPT_COUNT + 1],
			enum optimizer ids[OPT_COUNT]);

#endif

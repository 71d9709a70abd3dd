/*
 * test_vision_step.c - the operators of a vision training step by hand:
 * convolutions as implicit GEMMs (grouped, depthwise, Winograd), the
 * layout copies around them, normalisation and activation passes, the
 * residual blocks' projections, squeeze-excitation, Swin windows, U-Net
 * blocks and pools.  Each network is a few layers written out below, two
 * images of 8 x 8 (unless a test says otherwise) on one A100, so that
 * every FLOP and byte is a short product.
 */
#include "tc_test.h"
#include "tc_catalog.h"
#include "tc_ops.h"

#include <stdlib.h>
#include <unistd.h>

#include "../../src/model/families/estimate.h"
#include "../../src/model/families/vision_shape.h"

/* The YAML text `yaml` loaded as a workload (the caller frees it). */
static struct workload *load_text(const char *yaml)
{
	char path[] = TC_TEMP_FILE;
	struct workload *w;
	tc_write_temp(path, yaml);
	w = tc_load_workload(path);
	unlink(path);
	return w;
}

/* The A100 of the frozen catalog, with every element-wise pass unfused
 * and no fp32 casts around the norms, as the counts below assume. */
static void a100(struct gpu *g)
{
	char why[512];
	assert_int_equal(gpu_catalog_lookup(&cat, "a100-80gb-sxm", g, why,
					    sizeof(why)), 0);
	assert_int_equal(eff_set(&g->eff, eff_id_unfused_frac, 1,
				 EFF_LAYER_FRAMEWORK), 1);
	assert_int_equal(eff_set(&g->eff, eff_id_fp32_norm_frac, 0,
				 EFF_LAYER_FRAMEWORK), 1);
}

/* The operators of one step of w on g into ws. */
static void step_on(const struct workload *w, const struct gpu *g,
		    struct est_workspace *ws)
{
	struct estimate e;
	struct plan_problem why;
	assert_int_equal(est_workspace_init(ws, EST_MAX_OPS), 0);
	if (step_estimate(w, g, ws, &e, &why))
		fail_msg("estimate failed: %s", why.msg);
}

/* The operators of one step of `yaml` on the A100 into ws. */
static void step_of(const char *yaml, struct est_workspace *ws)
{
	struct workload *w = load_text(yaml);
	struct gpu g;
	a100(&g);
	step_on(w, &g, ws);
	free(w);
}

/* The shapes and counts of `yaml`'s network at its image size into sh
 * and *s. */
static void infer_of(const char *yaml, struct vis_shape *sh,
		     struct vis_summary *s)
{
	struct workload *w = load_text(yaml);
	char msg[200];
	if (vision_infer(&w->vis, w->vtrain.image_size, w->vtrain.image_width,
			 sh, s, msg, sizeof(msg)))
		fail_msg("%s", msg);
	free(w);
}

/* A network around the layer under test: a 1x1 convolution from 4 to 8
 * channels first (the first layer has no data gradient), then `mid`,
 * a global average pool and a linear layer to 10 classes. */
#define NET(mid, train)                                                      \
	"kind: vision\n"                                                     \
	"model:\n"                                                           \
	"  in_channels: 4\n"                                                 \
	"  layers:\n"                                                        \
	"    - { layer: conv, out: 8, kernel: 1 }\n"                         \
	mid                                                                  \
	"    - { layer: avgpool, global: true }\n"                           \
	"    - { layer: linear, out: 10 }\n"                                 \
	"training: { image_size: 8, dataset_size: 400, epochs: 1, "          \
	"global_batch: 2" train " }\n"                                       \
	"plan: { gpu: a100-80gb-sxm, count: 1 }\n"

#define FP16_NHWC ", precision: fp16, channels_last: true"

/*
 * A grouped 3x3 convolution, 8 -> 8 channels in 2 groups, stride 1: an
 * implicit GEMM of M = 2 images x 8 x 8 = 128 positions, N = 8 / 2 = 4
 * outputs and K = 8 / 2 x 9 = 36 inputs per group, 2 groups.
 */
static void test_grouped_conv_flop(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(NET("    - { layer: conv, out: 8, kernel: 3, groups: 2 }\n",
		    FP16_NHWC), &ws);
	/* 2 x 128 x 4 x 36 x 2 groups = 73,728 FLOP */
	assert_close(tc_must_op(&ws, "l2.conv.fwd")->flop, 73728.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* Its DRAM traffic: the input and output maps once each and the weights,
 * whose count a group divides: 2 B x (2 x 8 x 64 + 2 x 8 x 64 + 8 x 4 x
 * 9) = 2 x (1,024 + 1,024 + 288) = 4,672 B (not the im2col matrix). */
static void test_grouped_conv_bytes(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(NET("    - { layer: conv, out: 8, kernel: 3, groups: 2 }\n",
		    FP16_NHWC), &ws);
	assert_close(tc_must_op(&ws, "l2.conv.fwd")->bytes, 4672.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l2.conv.bwd_d")->bytes, 4672.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* A grouped convolution's multiply-adds per image: 64 positions x 8
 * outputs x 8 / 2 inputs a group x 9 taps = 18,432; its weights 8 x 4 x
 * 9 = 288. */
static void test_grouped_conv_macs(void **state)
{
	struct vis_shape sh[VIS_MAX_LAYERS];
	struct vis_summary s;
	(void)state;
	infer_of(NET("    - { layer: conv, out: 8, kernel: 3, groups: 2 }\n",
		     FP16_NHWC), sh, &s);
	assert_close(sh[1].macs, 18432.0, TOL_EXACT);
	assert_close(sh[1].params, 288.0, TOL_EXACT);
}

/* A GEMM reads both operands and writes its product: the classifier
 * after the pool, 2 rows x 8 -> 10, moves 2 B x (2 x 8 + 8 x 10 + 2 x 10)
 * = 2 x 116 = 232 B for 2 x 2 x 10 x 8 = 320 FLOP. */
static void test_linear_bytes(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(NET("", FP16_NHWC), &ws);
	assert_close(tc_must_op(&ws, "l3.linear.fwd")->flop, 320.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l3.linear.fwd")->bytes, 232.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* A depthwise 3x3 convolution (groups = channels = 8) runs on CUDA
 * cores: 2 x 1,024 outputs x 9 = 18,432 FLOP, moving both maps and its
 * 8 x 9 weights: 2 B x (1,024 + 1,024 + 72) = 4,240 B. */
static void test_depthwise_conv(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(NET("    - { layer: conv, out: 8, kernel: 3, groups: 8 }\n",
		    FP16_NHWC), &ws);
	assert_close(tc_must_op(&ws, "l2.conv.fwd")->flop, 18432.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l2.conv.fwd")->bytes, 4240.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l2.conv.bwd_w")->bytes, 4240.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* Channels-first fp16 training copies each map to NHWC and back around a
 * tensor-core convolution: forward read + write of input and output,
 * 2 x 2 B x (1,024 + 1,024) = 8,192 B; backward twice that (the maps and
 * their gradients), 16,384 B. */
static void test_layout_copies(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(NET("    - { layer: conv, out: 8, kernel: 3, groups: 2 }\n",
		    ", precision: fp16"), &ws);
	assert_close(tc_must_op(&ws, "l2.conv.layout")->bytes, 8192.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l2.conv.layout_bwd")->bytes, 16384.0,
		     TOL_EXACT);
	est_workspace_release(&ws);
}

/* In fp32 Winograd shortens every pass of a 3x3 stride-1 convolution,
 * the data gradient too: direct 2 x 128 x 8 x 72 = 147,456 FLOP, / 2.25
 * = 65,536 for the forward and both gradients. */
static void test_winograd_every_pass(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(NET("    - { layer: conv, out: 8, kernel: 3 }\n",
		    ", precision: fp32"), &ws);
	assert_close(tc_must_op(&ws, "l2.conv.fwd")->flop, 65536.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l2.conv.bwd_d")->flop, 65536.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l2.conv.bwd_w")->flop, 65536.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* Winograd needs stride 1 on both sides: on an 8 x 1 image a stride-2
 * 3x3 convolution keeps the width (floor((1 + 2 - 3) / 2) + 1 = 1) but
 * halves the height to 4, and runs direct: M = 2 x 4 x 1 = 8, 2 x 8 x 8
 * x 72 = 9,216 FLOP. */
static void test_winograd_needs_stride_one(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of("kind: vision\n"
		"model:\n"
		"  in_channels: 4\n"
		"  layers:\n"
		"    - { layer: conv, out: 8, kernel: 1 }\n"
		"    - { layer: conv, out: 8, kernel: 3, stride: 2 }\n"
		"    - { layer: avgpool, global: true }\n"
		"    - { layer: linear, out: 10 }\n"
		"training: { image_size: 8, image_width: 1, dataset_size: 400, "
		"epochs: 1, global_batch: 2, precision: fp32 }\n"
		"plan: { gpu: a100-80gb-sxm, count: 1 }\n", &ws);
	assert_close(tc_must_op(&ws, "l2.conv.fwd")->flop, 9216.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* A convolution that concatenates a saved output copies the joined map:
 * 8 + 8 = 16 channels of 2 x 64 positions, 2,048 elements read and
 * written, 8,192 B. */
static void test_conv_concat_copy(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of("kind: vision\n"
		"model:\n"
		"  in_channels: 4\n"
		"  layers:\n"
		"    - { layer: conv, out: 8, kernel: 1, save: true }\n"
		"    - { layer: conv, out: 8, kernel: 3, concat: true }\n"
		"    - { layer: avgpool, global: true }\n"
		"    - { layer: linear, out: 10 }\n"
		"training: { image_size: 8, dataset_size: 400, epochs: 1, "
		"global_batch: 2" FP16_NHWC " }\n"
		"plan: { gpu: a100-80gb-sxm, count: 1 }\n", &ws);
	assert_close(tc_must_op(&ws, "l2.concat.fwd")->bytes, 8192.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/*
 * A 3-D network on 4 x 4 x 4 volumes of 2 channels: a 3x3x3 convolution
 * to 8 channels, then a transposed convolution of kernel 2 to 4 channels
 * (8 x 8 x 8).  The depth is folded into the height.
 */
#define VOL_NET                                                              \
	"kind: vision\n"                                                     \
	"model:\n"                                                           \
	"  dims: 3\n"                                                        \
	"  in_channels: 2\n"                                                 \
	"  layers:\n"                                                        \
	"    - { layer: conv, out: 8, kernel: 3 }\n"                         \
	"    - { layer: deconv, out: 4, kernel: 2 }\n"                       \
	"training: { image_size: 4, dataset_size: 400, epochs: 1, "          \
	"global_batch: 2" FP16_NHWC " }\n"                                   \
	"plan: { gpu: a100-80gb-sxm, count: 1 }\n"

/* The convolution reads the whole volume: 2 B x (2 x 2 x 64 in + 2 x 8
 * x 64 out + 8 x 2 x 27 weights) = 2 x (256 + 1,024 + 432) = 3,424 B. */
static void test_volume_conv_bytes(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(VOL_NET, &ws);
	assert_close(tc_must_op(&ws, "l1.conv.fwd")->bytes, 3424.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* Each of the 2 x 64 input positions writes a 2 x 2 x 2 block of 4
 * channels, 32 outputs from 8 inputs: 2 x 128 x 32 x 8 = 65,536 FLOP. */
static void test_volume_deconv(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(VOL_NET, &ws);
	assert_close(tc_must_op(&ws, "l2.deconv.fwd")->flop, 65536.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* A frozen entry still runs forward; only its backward is skipped. */
static void test_frozen_runs_forward(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of("kind: vision\n"
		"model:\n"
		"  in_channels: 4\n"
		"  layers:\n"
		"    - { layer: conv, out: 8, kernel: 1, frozen: true }\n"
		"    - { layer: avgpool, global: true }\n"
		"    - { layer: linear, out: 10 }\n"
		"training: { image_size: 8, dataset_size: 400, epochs: 1, "
		"global_batch: 2" FP16_NHWC " }\n"
		"plan: { gpu: a100-80gb-sxm, count: 1 }\n", &ws);
	/* 2 x (2 x 64 positions) x 8 outputs x 4 inputs = 8,192 FLOP */
	assert_close(tc_must_op(&ws, "l1.conv.fwd")->flop, 8192.0, TOL_EXACT);
	assert_null(tc_find_op(&ws, "l1.conv.bwd_w"));
	est_workspace_release(&ws);
}

/* Training batch-norm: a statistics pass and the normalisation forward
 * (3 passes), two reductions and the data gradient backward (5), over
 * X = 2 x 8 x 64 = 1,024 elements of 2 B: 6,144 and 10,240 B. */
static void test_batchnorm_passes(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(NET("    - batchnorm\n", FP16_NHWC), &ws);
	assert_close(tc_must_op(&ws, "l2.bn.fwd")->bytes, 6144.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l2.bn.bwd")->bytes, 10240.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* Frozen batch-norm is a scale and shift: read and write each way,
 * 2 x 2 B x 1,024 = 4,096 B forward and backward. */
static void test_frozen_batchnorm_passes(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of("kind: vision\n"
		"model:\n"
		"  in_channels: 4\n"
		"  frozen_batchnorm: true\n"
		"  layers:\n"
		"    - { layer: conv, out: 8, kernel: 1 }\n"
		"    - batchnorm\n"
		"    - { layer: avgpool, global: true }\n"
		"    - { layer: linear, out: 10 }\n"
		"training: { image_size: 8, dataset_size: 400, epochs: 1, "
		"global_batch: 2" FP16_NHWC " }\n"
		"plan: { gpu: a100-80gb-sxm, count: 1 }\n", &ws);
	assert_close(tc_must_op(&ws, "l2.bn.fwd")->bytes, 4096.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l2.bn.bwd")->bytes, 4096.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* Layer norm: read and write forward, four passes backward, over 1,024
 * elements of 2 B: 4,096 and 8,192 B. */
static void test_layernorm_passes(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(NET("    - layernorm\n", FP16_NHWC), &ws);
	assert_close(tc_must_op(&ws, "l2.ln.fwd")->bytes, 4096.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l2.ln.bwd")->bytes, 8192.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* Group norm: statistics and normalisation as batch-norm, 3 passes
 * forward and 5 backward over 1,024 elements of 2 B: 6,144 and
 * 10,240 B. */
static void test_groupnorm_passes(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(NET("    - groupnorm\n", FP16_NHWC), &ws);
	assert_close(tc_must_op(&ws, "l2.gn.fwd")->bytes, 6144.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l2.gn.bwd")->bytes, 10240.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* A 2x2 stride-2 max pool on 1,024 elements, 256 out: forward reads the
 * map and writes the result, 2 B x 1,024 x (1 + 1/4) = 2,560 B; backward
 * makes two passes over the input's size and one over the output's,
 * 2 B x 1,024 x (2 + 1/4) = 4,608 B. */
static void test_maxpool_passes(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(NET("    - { layer: maxpool, kernel: 2, stride: 2 }\n",
		    FP16_NHWC), &ws);
	assert_close(tc_must_op(&ws, "l2.maxpool.fwd")->bytes, 2560.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l2.maxpool.bwd")->bytes, 4608.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* Tokens: flatten, class token and position add, 5 passes forward and 3
 * backward over 2 images x 65 tokens (64 positions and the class token)
 * x 8 = 1,040 elements of 2 B: 10,400 and 6,240 B. */
static void test_tokens_passes(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(NET("    - { layer: tokens, class_token: true }\n", FP16_NHWC),
		&ws);
	assert_close(tc_must_op(&ws, "l2.tokens.fwd")->bytes, 10400.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l2.tokens.bwd")->bytes, 6240.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* Swin's patch merging on the 8-channel 8 x 8 map: 2 x 4 x 4 = 32 rows
 * of the 2 x 2 neighbours, 4 x 8 = 32 channels, X = 1,024 elements; the
 * gather copies them (read, write: 4,096 B), the layer norm reads and
 * writes them (4,096 B), the reduction 32 -> 16 is 2 x 32 x 16 x 32 =
 * 32,768 FLOP. */
static void test_patch_merge(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(NET("    - patch_merge\n", FP16_NHWC), &ws);
	assert_close(tc_must_op(&ws, "l2.gather.fwd")->bytes, 4096.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l2.ln.fwd")->bytes, 4096.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l2.reduce.fwd")->flop, 32768.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* A ConvNeXt block without a kernel is ConvNeXt's 7x7 depthwise
 * convolution: 2 x 1,024 outputs x 49 = 100,352 FLOP. */
static void test_cnblock_default_kernel(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(NET("    - cnblock\n", FP16_NHWC), &ws);
	assert_close(tc_must_op(&ws, "l2.first.dw.fwd")->flop, 100352.0,
		     TOL_EXACT);
	est_workspace_release(&ws);
}

/* A basic block that widens 8 -> 16 channels at stride 1 still needs its
 * 1x1 projection on the shortcut: 2 x (2 x 64 positions) x 16 x 8 =
 * 32,768 FLOP. */
static void test_widening_block_projects(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(NET("    - { layer: basic, out: 16 }\n", FP16_NHWC), &ws);
	assert_close(tc_must_op(&ws, "l2.first.down.fwd")->flop, 32768.0,
		     TOL_EXACT);
	est_workspace_release(&ws);
}

/* At stride 2 the projection runs over the output's positions only,
 * 2 x 4 x 4 = 32: 2 x 32 x 16 x 8 = 8,192 FLOP. */
static void test_strided_projection(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(NET("    - { layer: basic, out: 16, stride: 2 }\n", FP16_NHWC),
		&ws);
	assert_close(tc_must_op(&ws, "l2.first.down.fwd")->flop, 8192.0,
		     TOL_EXACT);
	est_workspace_release(&ws);
}

/* A bottleneck without a width is out / 4 wide: 32 / 4 = 8, so its first
 * 1x1 convolution 8 -> 8 over 2 x 64 positions is 2 x 128 x 8 x 8 =
 * 16,384 FLOP. */
static void test_bottleneck_default_width(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(NET("    - { layer: bottleneck, out: 32 }\n", FP16_NHWC), &ws);
	assert_close(tc_must_op(&ws, "l2.first.c1.fwd")->flop, 16384.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/*
 * A bottleneck 8 -> 32 without a width is 32 / 4 = 8 wide.  Per image:
 * 1x1 8 -> 8 on 64 positions, 4,096; 3x3 8 -> 8, 64 x 8 x 8 x 9 =
 * 36,864; 1x1 8 -> 32, 64 x 32 x 8 = 16,384; the projection 8 -> 32,
 * 16,384: 73,728 multiply-adds.
 */
static void test_bottleneck_default_width_macs(void **state)
{
	struct vis_shape sh[VIS_MAX_LAYERS];
	struct vis_summary s;
	(void)state;
	infer_of(NET("    - { layer: bottleneck, out: 32 }\n", FP16_NHWC), sh, &s);
	assert_close(sh[1].macs, 73728.0, TOL_EXACT);
}

/* The copies after a stride-2 first block run on its 4 x 4 output: the
 * repeat's first 3x3 convolution 16 -> 16 is M = 2 x 16 = 32, K = 16 x 9
 * = 144, 2 x 32 x 16 x 144 = 147,456 FLOP. */
static void test_block_repeats_on_strided_map(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(NET("    - { layer: basic, out: 16, stride: 2, repeat: 2 }\n",
		    FP16_NHWC), &ws);
	assert_close(tc_must_op(&ws, "l2.c1.fwd")->flop, 147456.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* Of two copies the first runs once under its own name and the other
 * repeat - 1 = 1 time. */
static void test_block_repeat_count(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(NET("    - { layer: basic, out: 16, stride: 2, repeat: 2 }\n",
		    FP16_NHWC), &ws);
	assert_close(tc_must_op(&ws, "l2.first.c1.fwd")->count, 1.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l2.c1.fwd")->count, 1.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* A convblock keeps its input (8 x 64 = 512 elements an image) and, of
 * each of its two norm-ReLU pairs, the norm's input and the ReLU's
 * output: 4 x 8 x 64 = 2,048; 2,560 in all. */
static void test_convblock_activations(void **state)
{
	struct vis_shape sh[VIS_MAX_LAYERS];
	struct vis_summary s;
	(void)state;
	infer_of(NET("    - { layer: convblock, out: 8 }\n", FP16_NHWC), sh, &s);
	assert_close(sh[1].act_bytes, 2560.0, TOL_EXACT);
}

/*
 * An inverted residual stage 8 -> 16 channels, expand 1, kernel 3,
 * stride 1, squeeze-excitation 0.3, two copies.  The first copy: 8
 * channels expanded to 8, squeezed to floor(8 x 0.3) = floor(2.4) = 2.
 */
#define MBCONV_NET                                                           \
	"kind: vision\n"                                                     \
	"model:\n"                                                           \
	"  in_channels: 8\n"                                                 \
	"  layers:\n"                                                        \
	"    - { layer: mbconv, out: 16, expand: 1, kernel: 3, se: 0.3, "    \
	"repeat: 2 }\n"                                                      \
	"training: { image_size: 8, dataset_size: 400, epochs: 1, "          \
	"global_batch: 2" FP16_NHWC " }\n"                                   \
	"plan: { gpu: a100-80gb-sxm, count: 1 }\n"

/* The squeeze layer takes floor(cin x se) channels: 2 x 2 images x 8 x
 * 2 = 64 FLOP (not ceil: 3 channels, 96). */
static void test_se_squeeze_width(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(MBCONV_NET, &ws);
	assert_close(tc_must_op(&ws, "l1.first.se_fc1.fwd")->flop, 64.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* The squeeze's pool reads the map and writes its mean per channel:
 * 2 B x 1,024 x (1 + 1 / 64) = 2,080 B. */
static void test_se_pool_bytes(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(MBCONV_NET, &ws);
	assert_close(tc_must_op(&ws, "l1.first.se_pool.fwd")->bytes, 2080.0,
		     TOL_EXACT);
	est_workspace_release(&ws);
}

/* The channel scale: forward read and write, backward the map's gradient
 * (read, write) and the gate's (read the gradient and the map): 4 passes
 * of 2 B x 1,024 = 8,192 B. */
static void test_se_scale_backward(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(MBCONV_NET, &ws);
	assert_close(tc_must_op(&ws, "l1.first.se_scale.fwd")->bytes, 4096.0,
		     TOL_EXACT);
	assert_close(tc_must_op(&ws, "l1.first.se_scale.bwd")->bytes, 8192.0,
		     TOL_EXACT);
	est_workspace_release(&ws);
}

/* Only a block that keeps its width adds its input: the first copy
 * widens 8 -> 16 and has no residual add, the second (16 -> 16) adds 3
 * passes of 2 x 16 x 64 = 2,048 elements of 2 B, 12,288 B. */
static void test_mbconv_residual_needs_same_width(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(MBCONV_NET, &ws);
	assert_null(tc_find_op(&ws, "l1.first.add.fwd"));
	assert_close(tc_must_op(&ws, "l1.add.fwd")->bytes, 12288.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* The same for inverted residual blocks. */
static void test_mbconv_repeat_count(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(MBCONV_NET, &ws);
	assert_close(tc_must_op(&ws, "l1.first.dw.fwd")->count, 1.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l1.dw.fwd")->count, 1.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* An even depthwise kernel has no padding: kernel 4 at stride 2 takes 8
 * to floor((8 - 4) / 2) + 1 = 3 per side, 2 x 8 x 3 x 3 = 144 outputs
 * of 16 taps, 2 x 144 x 16 = 4,608 FLOP. */
static void test_mbconv_even_kernel_output(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of("kind: vision\n"
		"model:\n"
		"  in_channels: 8\n"
		"  layers:\n"
		"    - { layer: mbconv, out: 8, expand: 1, kernel: 4, stride: 2 }\n"
		"training: { image_size: 8, dataset_size: 400, epochs: 1, "
		"global_batch: 2" FP16_NHWC " }\n"
		"plan: { gpu: a100-80gb-sxm, count: 1 }\n", &ws);
	assert_close(tc_must_op(&ws, "l1.first.dw.fwd")->flop, 4608.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/*
 * A Swin stage on an 8-channel map: 2 heads, window 4 (N = 16 positions),
 * three copies.  On 8 x 8: 4 windows an image, 2 x 4 x 16 = 128 rows,
 * X = 128 x 8 = 1,024 elements, scores S = 2 x 4 x 2 heads x 16 x 16 =
 * 4,096.
 */
#define SWIN_NET(size)                                                       \
	"kind: vision\n"                                                     \
	"model:\n"                                                           \
	"  in_channels: 8\n"                                                 \
	"  layers:\n"                                                        \
	"    - { layer: swin, heads: 2, window: 4, repeat: 3 }\n"            \
	"    - patch_merge\n"                                                \
	"training: { " size ", dataset_size: 400, epochs: 1, "               \
	"global_batch: 2" FP16_NHWC " }\n"                                   \
	"plan: { gpu: a100-80gb-sxm, count: 1 }\n"

/* The qkv projection 8 -> 3 x 8 over the 128 rows: 2 x 128 x 24 x 8 =
 * 49,152 FLOP. */
static void test_swin_qkv(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(SWIN_NET("image_size: 8"), &ws);
	assert_close(tc_must_op(&ws, "l1.qkv.fwd")->flop, 49152.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* A 6 x 6 map is padded to whole windows, ceil(6 / 4)^2 = 4 an image:
 * the same 128 rows and 49,152 FLOP as 8 x 8. */
static void test_swin_pads_to_whole_windows(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(SWIN_NET("image_size: 6"), &ws);
	assert_close(tc_must_op(&ws, "l1.qkv.fwd")->flop, 49152.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* Every second copy shifts its windows: of three copies one, so the
 * shift and the mask run once a step, the rest three times. */
static void test_swin_shifted_copies(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(SWIN_NET("image_size: 8"), &ws);
	assert_close(tc_must_op(&ws, "l1.shift.fwd")->count, 1.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l1.mask.fwd")->count, 1.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l1.windows.fwd")->count, 3.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* The windows shift where a window is smaller than the map on either
 * side: on 8 x 4 with windows of 4 the height has two. */
static void test_swin_shifts_on_one_side(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(SWIN_NET("image_size: 8, image_width: 4"), &ws);
	assert_close(tc_must_op(&ws, "l1.shift.fwd")->count, 1.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* The relative position bias: forward read and write the 4,096 scores
 * (16,384 B), backward one pass summing their gradient (8,192 B). */
static void test_swin_bias_passes(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(SWIN_NET("image_size: 8"), &ws);
	assert_close(tc_must_op(&ws, "l1.bias.fwd")->bytes, 16384.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l1.bias.bwd")->bytes, 8192.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* The head reshapes: 10 passes over X forward, 16 backward, of 2 B:
 * 20,480 and 32,768 B. */
static void test_swin_head_copies(void **state)
{
	struct est_workspace ws;
	(void)state;
	step_of(SWIN_NET("image_size: 8"), &ws);
	assert_close(tc_must_op(&ws, "l1.heads.fwd")->bytes, 20480.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l1.heads.bwd")->bytes, 32768.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* And their kernels: 5 forward, 4 backward, where the window partition
 * launches 2 each way.  With no launch hidden under another, an
 * operator's launch time is its kernels times one launch: the ratios are
 * 5 / 2 and 4 / 2. */
static void test_swin_head_kernels(void **state)
{
	struct workload *w = load_text(SWIN_NET("image_size: 8"));
	struct est_workspace ws;
	struct gpu g;
	(void)state;
	a100(&g);
	assert_int_equal(eff_set(&g.eff, eff_id_launch_overlap_frac, 0,
				 EFF_LAYER_FRAMEWORK), 1);
	step_on(w, &g, &ws);
	assert_close(tc_must_op(&ws, "l1.heads.fwd")->launch_s /
		     tc_must_op(&ws, "l1.windows.fwd")->launch_s, 2.5, TOL_TIGHT);
	assert_close(tc_must_op(&ws, "l1.heads.bwd")->launch_s /
		     tc_must_op(&ws, "l1.windows.bwd")->launch_s, 2.0, TOL_TIGHT);
	est_workspace_release(&ws);
	free(w);
}

/* A Swin copy keeps a transformer layer's activations, T x (9 C + 2 mlp)
 * = 64 x (72 + 64) = 8,704 elements an image, and the softmax output of
 * its explicit attention, heads x T x N = 2 x 64 x 16 = 2,048, in place
 * of flash attention's statistics: 10,752 a copy, 32,256 for three. */
static void test_swin_keeps_scores(void **state)
{
	struct vis_shape sh[VIS_MAX_LAYERS];
	struct vis_summary s;
	(void)state;
	infer_of(SWIN_NET("image_size: 8"), sh, &s);
	assert_close(sh[0].act_bytes, 32256.0, TOL_EXACT);
}


/*
 * A small U-Net: a 1x1 convolution 4 -> 8 that saves its output, a
 * resblock 8 -> 8 with cross-attention (2 heads) to a text context of 4
 * tokens of width 8, and a resblock that concatenates the saved output
 * (8 + 8 = 16 channels in, 8 out); timestep embedding of width 16.  The
 * text encoder and the embedding are set after loading (a workload file
 * takes them from an architecture preset).
 */
static struct workload *unet(void)
{
	struct workload *w = load_text(
		"kind: vision\n"
		"model:\n"
		"  in_channels: 4\n"
		"  layers:\n"
		"    - { layer: conv, out: 8, kernel: 1, save: true }\n"
		"    - { layer: resblock, out: 8 }\n"
		"    - { layer: resblock, out: 8, concat: true }\n"
		"training: { image_size: 8, dataset_size: 400, epochs: 1, "
		"global_batch: 2" FP16_NHWC " }\n"
		"plan: { gpu: a100-80gb-sxm, count: 1 }\n");
	w->vis.time_embed = 16;
	w->vis.text.layers = 1;
	w->vis.text.width = 8;
	w->vis.text.heads = 2;
	w->vis.text.mlp = 16;
	w->vis.text.tokens = 4;
	w->vis.layer[1].heads = 2;
	return w;
}

static void unet_step(struct est_workspace *ws)
{
	struct workload *w = unet();
	struct gpu g;
	a100(&g);
	step_on(w, &g, ws);
	free(w);
}

/* The concatenation copies the joined map, 2 x 16 x 64 = 2,048 elements
 * (read both parts, write the whole: 2 passes of 2 B), 8,192 B, and the
 * first convolution reads all 16 channels: M = 128, N = 8, K = 16 x 9 =
 * 144, 2 x 128 x 8 x 144 = 294,912 FLOP. */
static void test_resblock_concat(void **state)
{
	struct est_workspace ws;
	(void)state;
	unet_step(&ws);
	assert_close(tc_must_op(&ws, "l3.1.concat.fwd")->bytes, 8192.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l3.1.conv1.fwd")->flop, 294912.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* The timestep embedding is projected to the block's output width:
 * 2 images x 16 -> 8, 2 x 2 x 8 x 16 = 512 FLOP, in the concatenating
 * block too (its input is 16 wide, its output 8). */
static void test_resblock_embedding_width(void **state)
{
	struct est_workspace ws;
	(void)state;
	unet_step(&ws);
	assert_close(tc_must_op(&ws, "l2.1.emb.fwd")->flop, 512.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l3.1.emb.fwd")->flop, 512.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* The cross-attention's keys and values come from the 2 x 4 context
 * tokens of width 8, projected to 2 x 8 = 16 (k and v): 2 x 8 x 16 x 8
 * = 2,048 FLOP. */
static void test_cross_attention_kv(void **state)
{
	struct est_workspace ws;
	(void)state;
	unet_step(&ws);
	assert_close(tc_must_op(&ws, "l2.1.st.xkv.fwd")->flop, 2048.0, TOL_EXACT);
	est_workspace_release(&ws);
}

/* Its scores: 64 image queries against 4 context keys per head, heads of
 * 8 / 2 = 4 wide, 2 images x 2 heads: 2 x 64 x 4 x 4 x 4 = 8,192 FLOP. */
static void test_cross_attention_scores(void **state)
{
	struct est_workspace ws;
	(void)state;
	unet_step(&ws);
	assert_close(tc_must_op(&ws, "l2.1.st.xscore.fwd")->flop, 8192.0,
		     TOL_EXACT);
	est_workspace_release(&ws);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grouped_conv_flop),
		cmocka_unit_test(test_grouped_conv_bytes),
		cmocka_unit_test(test_grouped_conv_macs),
		cmocka_unit_test(test_linear_bytes),
		cmocka_unit_test(test_depthwise_conv),
		cmocka_unit_test(test_layout_copies),
		cmocka_unit_test(test_winograd_every_pass),
		cmocka_unit_test(test_winograd_needs_stride_one),
		cmocka_unit_test(test_conv_concat_copy),
		cmocka_unit_test(test_volume_conv_bytes),
		cmocka_unit_test(test_volume_deconv),
		cmocka_unit_test(test_frozen_runs_forward),
		cmocka_unit_test(test_batchnorm_passes),
		cmocka_unit_test(test_frozen_batchnorm_passes),
		cmocka_unit_test(test_layernorm_passes),
		cmocka_unit_test(test_groupnorm_passes),
		cmocka_unit_test(test_maxpool_passes),
		cmocka_unit_test(test_tokens_passes),
		cmocka_unit_test(test_patch_merge),
		cmocka_unit_test(test_cnblock_default_kernel),
		cmocka_unit_test(test_widening_block_projects),
		cmocka_unit_test(test_strided_projection),
		cmocka_unit_test(test_bottleneck_default_width),
		cmocka_unit_test(test_bottleneck_default_width_macs),
		cmocka_unit_test(test_block_repeats_on_strided_map),
		cmocka_unit_test(test_block_repeat_count),
		cmocka_unit_test(test_convblock_activations),
		cmocka_unit_test(test_se_squeeze_width),
		cmocka_unit_test(test_se_pool_bytes),
		cmocka_unit_test(test_se_scale_backward),
		cmocka_unit_test(test_mbconv_residual_needs_same_width),
		cmocka_unit_test(test_mbconv_repeat_count),
		cmocka_unit_test(test_mbconv_even_kernel_output),
		cmocka_unit_test(test_swin_qkv),
		cmocka_unit_test(test_swin_pads_to_whole_windows),
		cmocka_unit_test(test_swin_shifted_copies),
		cmocka_unit_test(test_swin_shifts_on_one_side),
		cmocka_unit_test(test_swin_bias_passes),
		cmocka_unit_test(test_swin_head_copies),
		cmocka_unit_test(test_swin_head_kernels),
		cmocka_unit_test(test_swin_keeps_scores),
		cmocka_unit_test(test_resblock_concat),
		cmocka_unit_test(test_resblock_embedding_width),
		cmocka_unit_test(test_cross_attention_kv),
		cmocka_unit_test(test_cross_attention_scores),
	};
	tc_use_test_data();
	return cmocka_run_group_tests(tests, tc_catalog_setup_frozen,
				      tc_catalog_teardown);
}

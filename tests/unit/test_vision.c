/*
 * test_vision.c - vision workloads: shapes and FLOPs by hand, presets
 * against torchvision's figures, relations, crops, bad inputs, examples,
 * validation error.
 */
#include "tc_test.h"
#include "tc_catalog.h"
#include "tc_arch.h"

#include <dirent.h>
#include <stdlib.h>

#include "../../src/io/gpu_load.h"
#include "../../src/io/val_load.h"
#include "../../src/io/wl_load.h"
#include "../../src/io/yaml_load.h"
#include "../../src/model/families/estimate.h"
#include "../../src/model/families/llm.h"
#include "../../src/model/analyses/validate.h"
#include "../../src/model/families/vision_shape.h"

/* A bound that tells a model from a broken one (the model reaches about
 * 8 %); the gate at today's figure is tests/accuracy/gates.txt. */
#define VISION_MAPE_MAX 0.25

static void gpu(const char *id, struct gpu *g)
{
	char why[512];
	assert_int_equal(gpu_catalog_lookup(&cat, id, g, why, sizeof(why)), 0);
}

static void estimate(const struct workload *w, const char *gid,
		     struct estimate *e)
{
	struct gpu g;
	struct est_workspace ws;
	struct plan_problem why;
	gpu(gid, &g);
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	if (step_estimate(w, &g, &ws, e, &why))
		fail_msg("estimate failed: %s", why.msg);
	est_workspace_release(&ws);
}

/*
 * The small network of tests/unit/data/vision/small-net.yaml at 32 x 32:
 *  conv 3->16, 3x3, stride 1, pad 1: 32x32x16 out,
 *      MACs 32*32*16 * 3*9 = 442,368; params 16*3*9 = 432
 *  batchnorm: params 2*16 = 32
 *  conv 16->32, 3x3, stride 2, pad 1: floor((32+2-3)/2)+1 = 16, 16x16x32,
 *      MACs 16*16*32 * 16*9 = 1,179,648; params 32*16*9 = 4,608
 *  avgpool global; linear 32->10: MACs 320, params 320 + 10 = 330
 *  total MACs 1,622,336 per image, params 5,402;
 *  model FLOPs per step 6 * 1,622,336 * 128 images = 1,245,954,048.
 */
static void test_small_net_flops(void **state)
{
	(void)state;
	struct workload *w = tc_load_workload("tests/unit/data/vision/small-net.yaml");
	struct vis_summary s;
	struct vis_shape sh[VIS_MAX_LAYERS];
	struct estimate e;
	char msg[200];
	assert_int_equal(vision_infer(&w->vis, 32, 0, sh, &s, msg, sizeof(msg)), 0);
	assert_close(s.macs, 1622336.0, TOL_EXACT);
	assert_close(s.params, 5402.0, TOL_EXACT);
	assert_close(sh[3].h, 16.0, TOL_EXACT);
	assert_close(sh[3].c, 32.0, TOL_EXACT);
	assert_int_equal(s.classes, 10);
	estimate(w, "a100-80gb-sxm", &e);
	assert_close(e.model_flop_per_step, 1245954048.0, TOL_EXACT);
	assert_close(e.samples_per_step, 128.0, TOL_EXACT);
	assert_close(e.images_per_s, 128.0 / e.step_time_s, TOL_TIGHT);
	/* 50,000 images, batch 128, 2 epochs: 391 steps per epoch */
	assert_close(e.steps, 782.0, TOL_EXACT);
	free(w);
}

/*
 * The activation gradients at the backward's peak (MEM_BUFFERS, one GPU: no
 * gradient buckets).  The small net keeps, per image, 3,072 (conv1's
 * input), 16,384 (batch norm's input), 16,384 (relu's output), 16,384
 * (conv2's input), 8,192 (relu's output), 0 (pool) and 32 (linear's input)
 * elements.  Going backward, entry k's output and input gradients (2 x its
 * output) live while the entries after it have freed what they kept:
 * linear 2 x 10 - 0 = 20, pool 2 x 32 - 32 = 32, relu 2 x 8,192 - 32 =
 * 16,352, conv2 16,384 - 8,224 = 8,160, relu 32,768 - 24,608 = 8,160, then
 * below zero.  Peak 16,352 x 128 images x 2 B = 4,186,112 B (not the
 * 2 x 16,384 of the first map, 8,388,608 B, as if nothing were freed).
 */
static void test_backward_peak_buffers(void **state)
{
	struct workload *w = tc_load_workload("tests/unit/data/vision/small-net.yaml");
	struct estimate e;
	(void)state;
	estimate(w, "a100-80gb-sxm", &e);
	assert_close(e.mem_bytes[MEM_BUFFERS], 4186112.0, TOL_EXACT);
	free(w);
}

/* FLOPs per execution of the op named `name` in ws. */
static double op_flop(const struct est_workspace *ws, const char *name)
{
	for (size_t i = 0; i < ws->count; i++)
		if (!strcmp(ws->ops[i].name, name))
			return ws->ops[i].flop;
	fail_msg("no operator %s", name);
	return 0;
}

/*
 * Winograd on CUDA cores: in fp32 the 3x3 stride-1 convolution of the
 * small net executes 2.25x fewer FLOPs (F(2x2, 3x3): 16 multiplies instead
 * of 36), the stride-2 one and every fp16 convolution all of theirs.
 * Per step, forward: conv1 2 * 442,368 * 128 = 113,246,208 FLOP (50,331,648
 * with Winograd), conv2 2 * 1,179,648 * 128 = 301,989,888 FLOP.
 */
static void test_winograd_fp32(void **state)
{
	struct workload *w = tc_load_workload("tests/unit/data/vision/small-net.yaml");
	struct gpu g;
	struct est_workspace ws;
	struct estimate e;
	struct plan_problem why;
	(void)state;
	gpu("v100-16gb-sxm2", &g);
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	assert_int_equal(step_estimate(w, &g, &ws, &e, &why), 0);
	assert_close(op_flop(&ws, "l1.conv.fwd"), 113246208.0, TOL_EXACT);
	assert_close(op_flop(&ws, "l4.conv.fwd"), 301989888.0, TOL_EXACT);
	w->train.precision = PREC_FP32;
	assert_int_equal(step_estimate(w, &g, &ws, &e, &why), 0);
	assert_close(op_flop(&ws, "l1.conv.fwd"), 50331648.0, TOL_EXACT);
	assert_close(op_flop(&ws, "l4.conv.fwd"), 301989888.0, TOL_EXACT);
	/* MFU counts the network's FLOPs, not the ones executed. */
	assert_close(e.model_flop_per_step, 1245954048.0, TOL_EXACT);
	est_workspace_release(&ws);
	free(w);
}

/* Bytes per execution of the op named `name` in ws, or -1 when absent. */
static double op_bytes(const struct est_workspace *ws, const char *name)
{
	for (size_t i = 0; i < ws->count; i++)
		if (!strcmp(ws->ops[i].name, name))
			return ws->ops[i].bytes;
	return -1;
}

/*
 * hardswish is an element-wise activation like relu: the small network with
 * hard-swish in place of its two ReLUs lists its passes under its own name
 * and moves the same bytes.  After the 3x3 conv at 32 x 32: 128 images x 16
 * channels x 32 x 32 = 2,097,152 fp16 elements, forward read + write = 2 x
 * 2 B x 2,097,152 = 8,388,608 B, backward 3 passes = 12,582,912 B (times
 * the stack's unfused_frac, 1 here); the step is the same.
 */
static void test_hardswish_kind(void **state)
{
	struct workload *r = tc_load_workload("tests/unit/data/vision/small-net.yaml");
	struct workload *h = tc_load_workload("tests/unit/data/vision/hardswish-net.yaml");
	struct gpu g;
	struct est_workspace ws;
	struct estimate er, eh;
	struct plan_problem why;
	(void)state;
	gpu("a100-80gb-sxm", &g);
	assert_true(g.eff.unfused_frac == 1);
	assert_int_equal(h->vis.layer[2].kind, VL_HARDSWISH);
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	assert_int_equal(step_estimate(r, &g, &ws, &er, &why), 0);
	assert_close(op_bytes(&ws, "l3.relu.fwd"), 8388608.0, TOL_EXACT);
	assert_int_equal(step_estimate(h, &g, &ws, &eh, &why), 0);
	assert_close(op_bytes(&ws, "l3.hardswish.fwd"), 8388608.0, TOL_EXACT);
	assert_close(op_bytes(&ws, "l3.hardswish.bwd"), 12582912.0, TOL_EXACT);
	assert_true(op_bytes(&ws, "l3.relu.fwd") < 0);
	assert_close(eh.step_time_s, er.step_time_s, TOL_EXACT);
	assert_close(eh.memory_per_gpu_bytes, er.memory_per_gpu_bytes, TOL_EXACT);
	est_workspace_release(&ws);
	free(r);
	free(h);
}

/*
 * Fusion as a framework property: unfused_frac scales the bytes of the
 * batch-norm and activation passes, not pools.  Small net, fp16 (2 B),
 * 128 images: batch-norm input 128 * 16 * 32 * 32 = 2,097,152 elements,
 * forward 3 passes = 12,582,912 B (x 0.3 = 3,774,873.6 B); relu after
 * it 2 passes = 8,388,608 B (x 0.3 = 2,516,582.4 B); the global average
 * pool reads 128 * 32 * 16 * 16 = 1,048,576 elements and writes 4,096:
 * 2 * 1,052,672 = 2,105,344 B whatever the fusion.  At 0 the passes are
 * gone and the step is shorter.
 */
static void test_unfused_frac(void **state)
{
	struct workload *w = tc_load_workload("tests/unit/data/vision/small-net.yaml");
	struct gpu g;
	struct est_workspace ws;
	struct estimate e1, e3, e0;
	struct plan_problem why;
	(void)state;
	gpu("a100-80gb-sxm", &g);
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	assert_int_equal(step_estimate(w, &g, &ws, &e1, &why), 0);
	assert_close(op_bytes(&ws, "l2.bn.fwd"), 12582912.0, TOL_EXACT);
	assert_close(op_bytes(&ws, "l3.relu.fwd"), 8388608.0, TOL_EXACT);
	assert_close(op_bytes(&ws, "l6.avgpool.fwd"), 2105344.0, TOL_EXACT);
	assert_int_equal(eff_set(&g.eff, eff_id_unfused_frac, 0.3,
				 EFF_LAYER_FRAMEWORK), 1);
	assert_int_equal(step_estimate(w, &g, &ws, &e3, &why), 0);
	assert_close(op_bytes(&ws, "l2.bn.fwd"), 3774873.6, TOL_TIGHT);
	assert_close(op_bytes(&ws, "l3.relu.fwd"), 2516582.4, TOL_TIGHT);
	assert_close(op_bytes(&ws, "l6.avgpool.fwd"), 2105344.0, TOL_EXACT);
	assert_int_equal(eff_set(&g.eff, eff_id_unfused_frac, 0,
				 EFF_LAYER_FRAMEWORK), 1);
	assert_int_equal(step_estimate(w, &g, &ws, &e0, &why), 0);
	assert_true(op_bytes(&ws, "l2.bn.fwd") < 0);
	assert_true(e0.step_time_s < e3.step_time_s);
	assert_true(e3.step_time_s < e1.step_time_s);
	est_workspace_release(&ws);
	free(w);
}

/*
 * PyTorch autocast runs layer norm in fp32: fp32_norm_frac charges the
 * casts and the wider passes.  ln-net.yaml, fp16 (e = 2 B), 128 images:
 * the layer norm's input is 128 * 16 * 32 * 32 = 2,097,152 elements.
 * Its own passes: forward read + write, 2 * 2 * 2,097,152 = 8,388,608 B.
 * In fp32 with casts, per element: forward the cast up (2 + 4), the two
 * passes at 4 B instead of 2 (+ 2 * 2) and the cast back (4 + 2), 16 B
 * more: 33,554,432 B; backward the same casts and four passes widened,
 * 20 B more: 41,943,040 B.  At 0.5 half of each; in fp32 training none.
 */
static void test_fp32_norm_frac(void **state)
{
	struct workload *w = tc_load_workload("tests/unit/data/vision/ln-net.yaml");
	struct gpu g;
	struct est_workspace ws;
	struct estimate e0, e1;
	struct plan_problem why;
	(void)state;
	gpu("a100-80gb-sxm", &g);
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	assert_int_equal(step_estimate(w, &g, &ws, &e0, &why), 0);
	assert_close(op_bytes(&ws, "l2.ln.fwd"), 8388608.0, TOL_EXACT);
	assert_true(op_bytes(&ws, "l2.ln_fp32.fwd") < 0);
	assert_int_equal(eff_set(&g.eff, eff_id_fp32_norm_frac, 1, EFF_LAYER_FRAMEWORK), 1);
	assert_int_equal(step_estimate(w, &g, &ws, &e1, &why), 0);
	assert_close(op_bytes(&ws, "l2.ln.fwd"), 8388608.0, TOL_EXACT);
	assert_close(op_bytes(&ws, "l2.ln_fp32.fwd"), 33554432.0, TOL_EXACT);
	assert_close(op_bytes(&ws, "l2.ln_fp32.bwd"), 41943040.0, TOL_EXACT);
	assert_true(e1.step_time_s > e0.step_time_s);
	assert_int_equal(eff_set(&g.eff, eff_id_fp32_norm_frac, 0.5, EFF_LAYER_FRAMEWORK), 1);
	assert_int_equal(step_estimate(w, &g, &ws, &e1, &why), 0);
	assert_close(op_bytes(&ws, "l2.ln_fp32.fwd"), 16777216.0, TOL_EXACT);
	w->train.precision = PREC_FP32;
	assert_int_equal(step_estimate(w, &g, &ws, &e1, &why), 0);
	assert_true(op_bytes(&ws, "l2.ln_fp32.fwd") < 0);
	est_workspace_release(&ws);
	free(w);
}

/* The preset files give torchvision's parameter counts and GMACs
 * (reference §2.1-2.5; EfficientNet-B0 and Swin-T by hand in
 * test_vision_blocks.c). */
static void test_presets_match_torchvision(void **state)
{
	static const struct { const char *name; double params, gmacs; } t[] = {
		{ "resnet18", 11689512, 1.814 }, { "resnet34", 21797672, 3.664 },
		{ "resnet50", 25557032, 4.089 }, { "resnet101", 44549160, 7.801 },
		{ "resnet152", 60192808, 11.514 }, { "vit-b16", 86567656, 17.564 },
		{ "vit-l16", 304326632, 61.555 }, { "vit-h14", 632045800, 167.295 },
		{ "convnext-tiny", 28589128, 4.456 },
		{ "efficientnet-b0", 5288548, 0.386 },
		{ "swin-tiny", 28288354, 4.491 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct vision_arch a;
		struct vis_summary s;
		char msg[200];
		tc_vision_preset(t[i].name, &a);
		assert_int_equal(vision_infer(&a, 224, 0, NULL, &s, msg, sizeof(msg)), 0);
		assert_close(s.params, t[i].params, TOL_EXACT);
		assert_close(s.macs / 1e9, t[i].gmacs, 1e-3);
	}
}

/* ResNet-50 forward: 4.09 GMACs (torchvision, reference §0.1). */
static void test_resnet50_gmacs(void **state)
{
	struct vision_arch a;
	struct vis_summary s;
	(void)state;
	tc_vision_preset("resnet50", &a);
	assert_int_equal(vision_infer(&a, 224, 0, NULL, &s, NULL, 0), 0);
	assert_close(s.macs, 4.089e9, 1e-3);
}

static struct workload *resnet50(const char *gid, enum tc_prec p, int count)
{
	struct workload *w = tc_load_workload("examples/resnet50-a100.yaml");
	snprintf(w->plan.gpu, sizeof(w->plan.gpu), "%s", gid);
	w->train.precision = p;
	w->plan.count = count;
	return w;
}

/* Relations: more GPUs never make a step's compute slower (fixed global
 * batch); bf16 beats fp32 on A100; A100 SXM is not slower than L40S. */
static void test_relations(void **state)
{
	struct estimate e1, e2;
	struct workload *w;
	double prev = 1e300;
	(void)state;
	for (int n = 1; n <= 16; n *= 2) {
		w = resnet50("a100-80gb-sxm", PREC_BF16, n);
		estimate(w, "a100-80gb-sxm", &e1);
		double c = e1.breakdown_s[BRK_GEMM] + e1.breakdown_s[BRK_MEMBOUND];
		assert_true(c <= prev);
		prev = c;
		free(w);
	}
	w = resnet50("a100-80gb-sxm", PREC_BF16, 8);
	estimate(w, "a100-80gb-sxm", &e1);
	w->train.precision = PREC_FP32;
	estimate(w, "a100-80gb-sxm", &e2);
	assert_true(e1.images_per_s > e2.images_per_s);
	w->train.precision = PREC_FP16;
	estimate(w, "a100-80gb-sxm", &e1);
	estimate(w, "l40s", &e2);
	assert_true(e1.images_per_s >= e2.images_per_s);
	free(w);
}

/* ViT runs through the transformer operators of llm.c, non-causal. */
static void test_vit_uses_llm_ops(void **state)
{
	struct workload *w = tc_load_workload("examples/vit-b16-a100.yaml");
	struct gpu g;
	struct est_workspace ws;
	struct estimate e;
	struct plan_problem why;
	int found = 0;
	(void)state;
	gpu("a100-80gb-sxm", &g);
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	assert_int_equal(step_estimate(w, &g, &ws, &e, &why), 0);
	for (size_t i = 0; i < ws.count; i++)
		if (!strcmp(ws.ops[i].name, "vit.attn_flash"))
			found = 1;
	assert_true(found);
	/* its 12,000 images/s loader binds */
	assert_int_equal(e.limiting, LIM_DATA_LOADER);
	assert_true(e.input_wait_s > 0);
	assert_close(e.images_per_s, 12000.0, 1e-9);
	est_workspace_release(&ws);
	free(w);
}

/*
 * training.crop: the network is fed the crop, whatever the image it is
 * cut from.  The small net's 32 x 32 crops of 40 x 40 images give the
 * figures test_small_net_flops counts by hand at 32 x 32; 224 x 224 crops
 * of 256 x 256 images (ResNet-50) and 128^3 patches of 160^3 volumes (3D
 * U-Net, dims 3: the crop is the cube's side) give, to the bit, the step
 * of the same run whose images are the crop's size.
 */
static void test_crop_is_network_input(void **state)
{
	static const struct { const char *crop, *plain; } pair[] = {
		{ "tests/unit/data/vision/resnet50-crop.yaml",
		  "examples/resnet50-a100.yaml" },
		{ "tests/unit/data/vision/unet3d-crop.yaml",
		  "tests/unit/data/vision/unet3d-l40s.yaml" },
	};
	struct workload *w = tc_load_workload("tests/unit/data/vision/small-net-crop.yaml");
	struct estimate e, ep;
	(void)state;
	assert_close(w->vtrain.image_size, 40.0, TOL_EXACT);
	estimate(w, "a100-80gb-sxm", &e);
	assert_close(e.model_flop_per_step, 1245954048.0, TOL_EXACT);
	free(w);
	for (size_t i = 0; i < sizeof(pair) / sizeof(pair[0]); i++) {
		struct workload *wc = tc_load_workload(pair[i].crop);
		struct workload *wp = tc_load_workload(pair[i].plain);
		estimate(wc, wc->plan.gpu, &e);
		estimate(wp, wp->plan.gpu, &ep);
		assert_true(e.step_time_s == ep.step_time_s);
		assert_true(e.model_flop_per_step == ep.model_flop_per_step);
		assert_true(e.hw_flop_per_step == ep.hw_flop_per_step);
		assert_true(e.memory_per_gpu_bytes == ep.memory_per_gpu_bytes);
		assert_true(e.params == ep.params);
		/* without its crop the whole, larger image is the input */
		wc->vtrain.crop = 0;
		estimate(wc, wc->plan.gpu, &e);
		assert_true(e.model_flop_per_step > ep.model_flop_per_step);
		free(wc);
		free(wp);
	}
}

/* A crop too small for a preset's network: the layer in the preset file,
 * then the crop in the workload (as for image_size). */
static void test_crop_too_small(void **state)
{
	struct workload *w = calloc(1, sizeof(*w));
	struct tc_diag d;
	(void)state;
	tc_diag_init(&d);
	assert_int_equal(wl_load_file("tests/unit/data/vision/crop-vit-small.yaml",
				      &dp, w, &d), -1);
	assert_int_equal(d.severity, TC_EXIT_INPUT);
	assert_int_equal(d.count, 2);
	/* the 16 x 16 stride-16 patches of an 8 x 8 crop: floor(-8/16) + 1 */
	assert_string_equal(d.entry[0].msg, "models/arch/vit-b16.yaml:7:5: conv 16x16 stride 16 shrinks 8x8 to nothing (expected a larger image_size or fewer down-sampling layers)");
	assert_string_equal(d.entry[1].msg, "tests/unit/data/vision/crop-vit-small.yaml:3:36: crop 8 does not fit the network (expected a larger size)");
	free(w);
}

/* Bad inputs: exact messages and positions. */
static void test_bad_inputs(void **state)
{
	static const struct { const char *file, *msg; } t[] = {
		{ "tests/unit/data/vision/neg-channels.yaml",
		  "tests/unit/data/vision/neg-channels.yaml:5:27: 'out' is -64 (expected a whole number from 1 to 1000000)" },
		{ "tests/unit/data/vision/shrink.yaml",
		  "tests/unit/data/vision/shrink.yaml:6:7: maxpool 2x2 stride 2 shrinks 1x1 to nothing (expected a larger image_size or fewer down-sampling layers)" },
		{ "tests/unit/data/vision/crop-shrink.yaml",
		  "tests/unit/data/vision/crop-shrink.yaml:6:7: maxpool 2x2 stride 2 shrinks 1x1 to nothing (expected a larger image_size or fewer down-sampling layers)" },
		{ "tests/unit/data/vision/crop-larger.yaml",
		  "tests/unit/data/vision/crop-larger.yaml:5:9: crop 256 is larger than image_size 224 (expected at most 224)" },
		{ "tests/unit/data/vision/crop-wider.yaml",
		  "tests/unit/data/vision/crop-wider.yaml:3:54: crop 640 is larger than image_width 600 (expected at most 600, or crop_width)" },
		{ "tests/unit/data/vision/crop-width-larger.yaml",
		  "tests/unit/data/vision/crop-width-larger.yaml:3:53: crop_width 1024 is larger than image_size 800 (expected at most 800)" },
		{ "tests/unit/data/vision/crop-width-alone.yaml",
		  "tests/unit/data/vision/crop-width-alone.yaml:3:42: crop_width without crop (expected crop: the crop's height)" },
		{ "tests/unit/data/vision/bad-kind-layer.yaml",
		  "tests/unit/data/vision/bad-kind-layer.yaml:5:7: 'layer' is 'relux' (expected one of: conv, batchnorm, layernorm, relu, gelu, silu, hardswish, maxpool, avgpool, linear, add, tokens, attention, bottleneck, basic, cnblock, mbconv, swin, patch_merge, groupnorm, resblock, upsample, deconv, convblock, fpn, retina_head, rpn_head, roi_box_head, roi_mask_head; did you mean 'relu'?)" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct workload *w = calloc(1, sizeof(*w));
		struct tc_diag d;
		tc_diag_init(&d);
		assert_int_equal(wl_load_file(t[i].file, &dp, w, &d), -1);
		assert_int_equal(d.severity, TC_EXIT_INPUT);
		assert_true(d.count >= 1);
		assert_string_equal(d.entry[0].msg, t[i].msg);
		free(w);
	}
}

/* Every vision and recsys example loads and estimates. */
static void test_examples(void **state)
{
	DIR *dir = opendir("examples");
	struct dirent *de;
	int n = 0;
	(void)state;
	assert_non_null(dir);
	while ((de = readdir(dir)) != NULL) {
		size_t len = strlen(de->d_name);
		char path[512];
		struct yn_doc doc = { 0 };
		struct tc_diag d;
		const struct yn_node *k;
		if (len < 6 || strcmp(de->d_name + len - 5, ".yaml"))
			continue;
		snprintf(path, sizeof(path), "examples/%s", de->d_name);
		tc_diag_init(&d);
		assert_int_equal(yn_load_file(path, &doc, &d), 0);
		k = yn_map_get(doc.root, "kind");
		if (k && (!strcmp(k->str, "vision") || !strcmp(k->str, "recsys"))) {
			struct workload *w = tc_load_workload(path);
			struct estimate e;
			estimate(w, w->plan.gpu, &e);
			assert_true(e.samples_per_s > 0 && e.fits);
			free(w);
			n++;
		}
		yn_doc_release(&doc);
	}
	closedir(dir);
	assert_true(n >= 4);
}

/* The frozen copy of tests/validation/vision.csv (tests/data): below 25 % MAPE. */
static void test_validation(void **state)
{
	(void)state;
	tc_validate_set(TC_TEST_DATA "/validation/vision.csv", "vision", 4, VISION_MAPE_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_net_flops),
		cmocka_unit_test(test_backward_peak_buffers),
		cmocka_unit_test(test_winograd_fp32),
		cmocka_unit_test(test_hardswish_kind),
		cmocka_unit_test(test_unfused_frac),
		cmocka_unit_test(test_fp32_norm_frac),
		cmocka_unit_test(test_presets_match_torchvision),
		cmocka_unit_test(test_resnet50_gmacs),
		cmocka_unit_test(test_relations),
		cmocka_unit_test(test_vit_uses_llm_ops),
		cmocka_unit_test(test_crop_is_network_input),
		cmocka_unit_test(test_crop_too_small),
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_examples),
		cmocka_unit_test(test_validation),
	};
	return cmocka_run_group_tests(tests, tc_catalog_setup_shipped, tc_catalog_teardown);
}

/*
 * test_vision_blocks.c - the EfficientNet and Swin entries of the vision
 * layer vocabulary (mbconv, swin, patch_merge): parameters and
 * multiply-adds of one stage by hand, the operators of a step, the
 * presets against torchvision's figures, bad inputs with their positions.
 */
#include "tc_test.h"
#include "tc_catalog.h"
#include "tc_arch.h"
#include "tc_ops.h"

#include <stdlib.h>

#include "../../src/io/gpu_load.h"
#include "../../src/io/wl_load.h"
#include "../../src/model/families/estimate.h"
#include "../../src/model/families/llm.h"
#include "../../src/model/families/vision_shape.h"

/* The operators of one step of w on its plan's GPU into ws. */
static void step_ops(const struct workload *w, struct est_workspace *ws)
{
	struct gpu g;
	struct estimate e;
	struct plan_problem why;
	char msg[512];
	assert_int_equal(gpu_catalog_lookup(&cat, w->plan.gpu, &g, msg,
					    sizeof(msg)), 0);
	if (step_estimate(w, &g, ws, &e, &why))
		fail_msg("estimate failed: %s", why.msg);
	assert_true(e.step_time_s > 0 && e.fits);
}

/*
 * tests/unit/data/vision/mbconv-net.yaml: 8 x 8 x 8 in, mbconv out 16,
 * expand 4, kernel 3, stride 2, se 0.25, repeat 2.
 *  copy 1: cin 8, expanded 32, squeeze floor(8 * 0.25) = 2, 8x8 -> 4x4
 *          (floor((8 + 2 - 3) / 2) + 1 = 4)
 *    params: expand 8*32 + bn 2*32 = 320; depthwise 32*9 + bn 64 = 352;
 *            SE 32*2 + 2 + 2*32 + 32 = 162; project 32*16 + bn 2*16 = 544
 *            = 1,378
 *    MACs:   expand 64*8*32 = 16,384; depthwise 16*32*9 = 4,608;
 *            SE 2*32*2 = 128; project 16*32*16 = 8,192 = 29,312
 *  copy 2: cin 16, expanded 64, squeeze 4, 4x4, stride 1: residual
 *    params: 16*64 + 128 = 1,152; 64*9 + 128 = 704;
 *            64*4 + 4 + 4*64 + 64 = 580; 64*16 + 32 = 1,056 = 3,492
 *    MACs:   16*16*64 = 16,384; 16*64*9 = 9,216; 2*64*4 = 512;
 *            16*64*16 = 16,384 = 42,496
 *  total 4,870 parameters, 71,808 MACs; out 16 x 4 x 4.
 * Step of 4 images, fp16 (2 B), every pass unfused: the first copy
 * strides, so only the second adds its input, 3 passes over 4*16*16 =
 * 1,024 elements = 6,144 B; the first copy's channel scale reads and
 * writes 4*32*16 = 2,048 elements: 8,192 B.
 */
static void test_mbconv_by_hand(void **state)
{
	struct workload *w = tc_load_workload("tests/unit/data/vision/mbconv-net.yaml");
	struct vis_summary s;
	struct vis_shape sh[VIS_MAX_LAYERS];
	struct est_workspace ws;
	char msg[200];
	(void)state;
	assert_int_equal(vision_infer(&w->vis, 8, 0, sh, &s, msg, sizeof(msg)), 0);
	assert_close(s.params, 4870.0, TOL_EXACT);
	assert_close(s.macs, 71808.0, TOL_EXACT);
	assert_close(sh[0].c, 16.0, TOL_EXACT);
	assert_close(sh[0].h, 4.0, TOL_EXACT);
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	step_ops(w, &ws);
	assert_null(tc_find_op(&ws, "l1.first.add.fwd"));
	assert_close(tc_must_op(&ws, "l1.add.fwd")->bytes, 6144.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l1.first.se_scale.fwd")->bytes, 8192.0,
		     TOL_EXACT);
	/* the depthwise convolution runs on CUDA cores: 2 FLOP per MAC of
	 * its 4 * 4,608 */
	assert_close(tc_must_op(&ws, "l1.first.dw.fwd")->flop, 36864.0, TOL_EXACT);
	est_workspace_release(&ws);
	free(w);
}

/* Without squeeze-excitation the block has neither its parameters nor its
 * operators: 1,378 - 162 + 3,492 - 580 = 4,128 parameters, 71,808 - 128
 * - 512 = 71,168 MACs. */
static void test_mbconv_without_se(void **state)
{
	struct workload *w = tc_load_workload("tests/unit/data/vision/mbconv-net.yaml");
	struct vis_summary s;
	struct est_workspace ws;
	(void)state;
	w->vis.layer[0].se = 0;
	assert_int_equal(vision_infer(&w->vis, 8, 0, NULL, &s, NULL, 0), 0);
	assert_close(s.params, 4128.0, TOL_EXACT);
	assert_close(s.macs, 71168.0, TOL_EXACT);
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	step_ops(w, &ws);
	assert_null(tc_find_op(&ws, "l1.first.se_scale.fwd"));
	assert_null(tc_find_op(&ws, "l1.se_fc1.fwd"));
	est_workspace_release(&ws);
	free(w);
}

/*
 * tests/unit/data/vision/swin-net.yaml: 8 x 8 x 8 in, swin heads 2,
 * window 4, repeat 2, then patch_merge.
 *  swin, C = 8, MLP 4C = 32, T = 64 positions, N = 16 per window:
 *    params per copy: qkv 8*24 + 24 = 216; proj 8*8 + 8 = 72;
 *      MLP 8*32 + 32 + 32*8 + 8 = 552; two LayerNorms 4*8 = 32;
 *      relative position bias (2*4 - 1)^2 * 2 heads = 98  -> 970
 *    MACs per copy: 64 * (4*64 + 2*8*32) = 49,152 in the linear layers,
 *      2 * 64 * 16 * 8 = 16,384 in scores and weighted sum -> 65,536
 *    two copies: 1,940 parameters, 131,072 MACs
 *  patch_merge: 4C = 32 -> out 2C = 16 on 4 x 4: LayerNorm 64 +
 *    32*16 = 576 parameters, 16 * 32 * 16 = 8,192 MACs
 *  total 2,516 parameters, 139,264 MACs; out 16 x 4 x 4.
 * At 6 x 6 the map is padded to 8 x 8 for the windows (the same 131,072
 * MACs) and merged to 3 x 3: 9 * 32 * 16 = 4,608, total 135,680.
 */
static void test_swin_by_hand(void **state)
{
	struct workload *w = tc_load_workload("tests/unit/data/vision/swin-net.yaml");
	struct vis_summary s;
	struct vis_shape sh[VIS_MAX_LAYERS];
	char msg[200];
	(void)state;
	assert_int_equal(vision_infer(&w->vis, 8, 0, sh, &s, msg, sizeof(msg)), 0);
	assert_close(sh[0].params, 1940.0, TOL_EXACT);
	assert_close(sh[0].macs, 131072.0, TOL_EXACT);
	assert_close(s.params, 2516.0, TOL_EXACT);
	assert_close(s.macs, 139264.0, TOL_EXACT);
	assert_close(sh[1].c, 16.0, TOL_EXACT);
	assert_close(sh[1].h, 4.0, TOL_EXACT);
	assert_int_equal(s.classes, 0);
	assert_int_equal(vision_infer(&w->vis, 6, 0, sh, &s, msg, sizeof(msg)), 0);
	assert_close(sh[0].macs, 131072.0, TOL_EXACT);
	assert_close(sh[1].h, 3.0, TOL_EXACT);
	assert_close(s.macs, 135680.0, TOL_EXACT);
	free(w);
}

/*
 * The step of 4 images, fp16: 4 windows of 16 positions per image, 2
 * heads of 4 channels.  Scores: 4 * 4 * 2 = 32 products of 16 x 16 x 4,
 * 2 * 32 * 1,024 = 65,536 FLOP.  The bias is added to 32 * 256 = 8,192
 * scores, read and written: 32,768 B.  The second copy shifts: the roll
 * and its reverse read and write 4 * 64 * 8 = 2,048 elements each, 4
 * passes = 16,384 B, once per step; the mask is added to its 8,192
 * scores, read and written forward only: 32,768 B once.  The head
 * reshapes copy X = 4 * 64 * 8 = 2,048 elements 10 times forward (40,960
 * B) and 16 times backward (65,536 B), in both copies.  With one window
 * over the map there is nothing to shift or mask.
 */
static void test_swin_ops(void **state)
{
	struct workload *w = tc_load_workload("tests/unit/data/vision/swin-net.yaml");
	struct est_workspace ws;
	const struct op *o;
	(void)state;
	assert_int_equal(est_workspace_init(&ws, EST_MAX_OPS), 0);
	step_ops(w, &ws);
	assert_close(tc_must_op(&ws, "l1.wscore.fwd")->flop, 65536.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l1.bias.fwd")->bytes, 32768.0, TOL_EXACT);
	o = tc_must_op(&ws, "l1.shift.fwd");
	assert_close(o->bytes, 16384.0, TOL_EXACT);
	assert_close(o->count, 1.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l1.windows.fwd")->count, 2.0, TOL_EXACT);
	o = tc_must_op(&ws, "l1.mask.fwd");
	assert_close(o->bytes, 32768.0, TOL_EXACT);
	assert_close(o->count, 1.0, TOL_EXACT);
	assert_null(tc_find_op(&ws, "l1.mask.bwd"));
	o = tc_must_op(&ws, "l1.heads.fwd");
	assert_close(o->bytes, 40960.0, TOL_EXACT);
	assert_close(o->count, 2.0, TOL_EXACT);
	assert_close(tc_must_op(&ws, "l1.heads.bwd")->bytes, 65536.0, TOL_EXACT);
	assert_non_null(tc_find_op(&ws, "l2.reduce.bwd_w"));
	w->vis.layer[0].window = 8;
	step_ops(w, &ws);
	assert_null(tc_find_op(&ws, "l1.shift.fwd"));
	assert_null(tc_find_op(&ws, "l1.mask.fwd"));
	est_workspace_release(&ws);
	free(w);
}

/*
 * The presets against torchvision's figures (reference architectures.md
 * §2.4, §2.5): EfficientNet-B0 5,288,548 parameters and 0.386 GMACs,
 * Swin-T 28,288,354 and 4.491.  Swin-T stage by stage at 224 (56, 28,
 * 14, 7 positions per side, C 96 .. 768, heads C/32, 49 per window):
 *   patch embedding 96*48 + 96 + LayerNorm 192 = 4,896
 *   per block 12 C^2 + 13 C + 169 heads: 112,347 / 445,878 / 1,776,492 /
 *   7,091,928, times 2, 2, 6, 2 = 25,959,258
 *   merging 8 C + 8 C^2 at C = 96, 192, 384: 74,496 + 296,448 +
 *   1,182,720 = 1,553,664
 *   final LayerNorm 1,536, classifier 768,000 + 1,000
 *   = 28,288,354.
 */
static void test_presets(void **state)
{
	struct vision_arch a;
	struct vis_summary s;
	char msg[200];
	(void)state;
	tc_vision_preset("efficientnet-b0", &a);
	assert_int_equal(vision_infer(&a, 224, 0, NULL, &s, msg, sizeof(msg)), 0);
	assert_close(s.params, 5288548.0, TOL_EXACT);
	assert_close(s.macs / 1e9, 0.386, 1e-3);
	assert_int_equal(s.classes, 1000);
	tc_vision_preset("swin-tiny", &a);
	assert_int_equal(vision_infer(&a, 224, 0, NULL, &s, msg, sizeof(msg)), 0);
	assert_close(s.params, 28288354.0, TOL_EXACT);
	assert_close(s.macs / 1e9, 4.491, 1e-3);
	assert_int_equal(s.classes, 1000);
}

/* Bad inputs on the new keys and kinds: exact messages and positions. */
static void test_bad_inputs(void **state)
{
#define D "tests/unit/data/vision/"
	static const struct { const char *file, *msg; } t[] = {
		{ D "expand-on-conv.yaml",
		  D "expand-on-conv.yaml:5:39: expand on conv (expected it on mbconv only)" },
		{ D "swin-no-window.yaml",
		  D "swin-no-window.yaml:5:7: swin needs heads and window (expected heads: attention heads, window: the side of its attention windows)" },
		{ D "swin-heads.yaml",
		  D "swin-heads.yaml:5:7: 5 heads do not divide width 96 (expected a divisor)" },
		{ D "mbconv-se-range.yaml",
		  D "mbconv-se-range.yaml:5:48: 'se' is 1.5 (expected a number from 0 to 1)" },
		{ D "mbconv-after-tokens.yaml",
		  D "mbconv-after-tokens.yaml:6:7: mbconv after tokens (expected it on a feature map)" },
	};
#undef D
	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct workload *w = calloc(1, sizeof(*w));
		struct tc_diag d;
		assert_non_null(w);
		tc_diag_init(&d);
		assert_int_equal(wl_load_file(t[i].file, &dp, w, &d), -1);
		assert_int_equal(d.severity, TC_EXIT_INPUT);
		assert_true(d.count >= 1);
		assert_string_equal(d.entry[0].msg, t[i].msg);
		free(w);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mbconv_by_hand),
		cmocka_unit_test(test_mbconv_without_se),
		cmocka_unit_test(test_swin_by_hand),
		cmocka_unit_test(test_swin_ops),
		cmocka_unit_test(test_presets),
		cmocka_unit_test(test_bad_inputs),
	};
	return cmocka_run_group_tests(tests, tc_catalog_setup_frozen, tc_catalog_teardown);
}

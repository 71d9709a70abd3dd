/*
 * test_detect.c - detection networks in the vision layer vocabulary:
 * grouped bottlenecks (ResNeXt), feature pyramids, RetinaNet heads, frozen
 * prefixes and frozen batch-norm.  Parameter counts and GMACs by hand and
 * against torchvision's and the MLPerf reference's published figures;
 * operators of a step; bad inputs with their positions.
 */
#include "tc_test.h"
#include "tc_catalog.h"
#include "tc_arch.h"

#include <stdlib.h>

#include "../../src/io/gpu_load.h"
#include "../../src/io/wl_load.h"
#include "../../src/model/families/estimate.h"
#include "../../src/model/families/llm.h"
#include "../../src/model/families/vision_shape.h"

/*
 * ResNeXt-50 32x4d at 224 (torchvision: 25,028,904 parameters, 4.23
 * GMACs).  Stem 112x112x64 x 3*49 = 118,013,952 MACs; the stages run at
 * 56, 28, 14, 7 with inner widths 128, 256, 512, 1024 whose 3x3
 * convolutions have 32 groups (9 x width^2 / 32 MACs per position):
 *   stage 1: block 1  56^2 (64*128 + 9*128*128/32 + 128*256 + 64*256)
 *                     = 3136 * 61,952 = 194,281,472
 *            blocks 2-3  2 x 3136 (256*128 + 4,608 + 32,768) = 439,943,168
 *   stage 2: block 1  56^2*256*256 + 28^2 (9*256*256/32 + 256*512
 *                     + 256*512) = 205,520,896 + 784 * 280,576
 *                     = 425,492,480
 *            blocks 2-4  3 x 784 (512*256 + 18,432 + 131,072) = 660,946,944
 *   stage 3: block 1  28^2*512*512 + 14^2 (9*512*512/32 + 2*512*1024)
 *                     = 205,520,896 + 196 * 1,122,304 = 425,492,480
 *            blocks 2-6  5 x 196 (1024*512 + 73,728 + 524,288) = 1,100,611,584
 *   stage 4: block 1  14^2*1024*1024 + 7^2 (9*1024^2/32 + 2*1024*2048)
 *                     = 205,520,896 + 49 * 4,489,216 = 425,492,480
 *            blocks 2-3  2 x 49 (2048*1024 + 294,912 + 2,097,152)
 *                     = 439,943,168
 *   fc 2048 * 1000 = 2,048,000
 * Sum 4,230,479,872 MACs.  Parameters: convolutions 22,911,680,
 * batch-norms 68,224, fc 2,049,000 = 25,028,904.
 */
static void test_resnext50(void **state)
{
	struct vision_arch a;
	struct vis_summary s;
	char msg[200];
	(void)state;
	tc_vision_preset("resnext50-32x4d", &a);
	assert_int_equal(vision_infer(&a, 224, 0, NULL, &s, msg, sizeof(msg)), 0);
	assert_close(s.params, 25028904.0, TOL_EXACT);
	assert_close(s.macs, 4230479872.0, TOL_EXACT);
	assert_close(s.macs / 1e9, 4.23, 1e-3); /* torchvision _ops */
	assert_int_equal(s.classes, 1000);
}

/*
 * torchvision's RetinaNet-ResNet50-FPN, 91 classes: 34,014,999 parameters
 * and 151.54 GMACs (its _ops, for an 800 x 800 input), frozen batch-norm
 * (no parameters).
 *   ResNet-50 convolutions: 25,557,032 - fc 2,049,000 - batch-norm 53,120
 *     = 23,454,912
 *   FPN laterals (1x1 + bias) 512, 1024, 2048 -> 256: 918,272; three
 *     3x3 output convolutions 3 x (9*256*256 + 256) = 1,770,240; P6, P7
 *     2 x 590,080 = 1,180,160: 3,868,672
 *   towers 2 x 4 x 590,080 = 4,720,640; outputs 2304 * 9*91 + 819
 *     = 1,887,795 and 2304 * 36 + 36 = 82,980: 6,691,415
 *   total 34,014,999.
 * MACs at 800: levels P3-P7 of 100, 50, 25, 13, 7 = 13,343 positions;
 *   backbone (stem 400^2 x 64 x 147 and the four stages at 200..25)
 *     52,131,840,000
 *   FPN: 100^2 (512*256 + 9*256^2) + 50^2 (1024*256 + 9*256^2)
 *     + 25^2 (2048*256 + 9*256^2) + (13^2 + 7^2) 9*256^2
 *     = 7,210,000,000 + 2,129,920,000 + 696,320,000 + 128,581,632
 *     = 10,163,781,632
 *   heads: 13,343 (8 x 9*256^2 + 9*256*9*95) = 13,343 * 6,688,512
 *     = 89,244,815,616
 *   total 151,540,437,248.
 */
static void test_retinanet_torchvision(void **state)
{
	struct vision_arch a;
	struct vis_summary s;
	struct vis_shape sh[VIS_MAX_LAYERS];
	char msg[200];
	(void)state;
	tc_vision_preset("retinanet-resnet50-fpn", &a);
	assert_int_equal(vision_infer(&a, 800, 0, sh, &s, msg, sizeof(msg)), 0);
	assert_close(s.params, 34014999.0, TOL_EXACT);
	assert_close(s.macs, 151540437248.0, TOL_EXACT);
	assert_close(s.macs / 1e9, 151.54, 1e-4);
	assert_int_equal(sh[8].levels, 5);
	assert_close(sh[8].lh[0], 100.0, TOL_EXACT);
	assert_close(sh[8].lh[3], 13.0, TOL_EXACT);
	assert_close(sh[8].lh[4], 7.0, TOL_EXACT);
	assert_close(sh[9].macs, 89244815616.0, TOL_EXACT);
	/* the head computes its own loss */
	assert_int_equal(s.classes, 0);
}

static double op_value(const struct est_workspace *ws, const char *name,
		       int bytes)
{
	for (size_t i = 0; i < ws->count; i++)
		if (!strcmp(ws->ops[i].name, name))
			return bytes ? ws->ops[i].bytes : ws->ops[i].flop;
	fail_msg("no operator %s", name);
	return 0;
}

static int has_op(const struct est_workspace *ws, const char *name)
{
	for (size_t i = 0; i < ws->count; i++)
		if (!strcmp(ws->ops[i].name, name))
			return 1;
	return 0;
}

/*
 * The MLPerf RetinaNet (ResNeXt-50 32x4d FPN, 264 classes) at 800 x 800,
 * 32 images per GPU on 8 L40S (tests/unit/data/vision/retinanet-l40s.yaml).
 * Parameters (reference: 37,060,652): ResNeXt-50 convolutions 25,028,904
 *   - fc 2,049,000 - batch-norm 68,224 = 22,911,680; FPN 3,868,672 as
 *   above; towers 4,720,640, outputs 2304 * 2376 + 2376 = 5,476,680 and
 *   82,980: 37,060,652.
 * Frozen prefix: stem 64*3*49 = 9,408 and stage 1 (above) 61,952 + 2 x
 *   70,144 = 202,240 parameters, and 400^2*64*147 + 200^2 (61,952 + 2 x
 *   70,144) = 1,505,280,000 + 8,089,600,000 = 9,594,880,000 MACs.
 * MACs per image 201,208,394,752 (backbone 53,934,080,000, FPN
 *   10,163,781,632, heads 13,343 x (8 x 589,824 + 2304 * 2412)
 *   = 137,110,533,120).
 * Model FLOPs per step: (2 x 201,208,394,752 + 4 x (201,208,394,752 -
 *   9,594,880,000)) x 256 = (402,416,789,504 + 766,454,059,008) x 256
 *   = 299,230,937,219,072.
 * Gradients all-reduced: 4 B x (37,060,652 - 211,648) = 147,396,016 B.
 * Focal loss forward on P3: 32 images x 100^2 x 9 x 264 logits x 2
 *   passes x 2 B = 3,041,280,000 B; anchor matching on P3: 32 x 100^2 x
 *   9 x 56 B = 161,280,000 B.
 */
static void test_retinanet_mlperf_step(void **state)
{
	struct workload *w = tc_load_workload("tests/unit/data/vision/retinanet-l40s.yaml");
	struct vis_summary s;
	struct gpu g;
	struct est_workspace ws;
	struct estimate e;
	struct plan_problem why;
	char whyg[512], msg[200];
	const double macs = 201208394752.0, frozen = 9594880000.0;
	(void)state;
	assert_int_equal(vision_infer(&w->vis, 800, 0, NULL, &s, msg, sizeof(msg)), 0);
	assert_close(s.params, 37060652.0, TOL_EXACT);
	assert_close(s.trainable_params, 37060652.0 - 211648.0, TOL_EXACT);
	assert_close(s.macs, macs, TOL_EXACT);
	assert_close(s.macs - s.trainable_macs, frozen, TOL_EXACT);

	assert_int_equal(gpu_catalog_lookup(&cat, "l40s", &g, whyg, sizeof(whyg)), 0);
	assert_int_equal(est_workspace_init(&ws, 4 * EST_MAX_OPS), 0);
	if (step_estimate(w, &g, &ws, &e, &why))
		fail_msg("estimate failed: %s", why.msg);
	assert_close(e.model_flop_per_step, 299230937219072.0, TOL_EXACT);
	assert_close(op_value(&ws, "dp.grad_allreduce", 1), 147396016.0, TOL_EXACT);
	assert_close(op_value(&ws, "l10.p1.focal_loss.fwd", 1), 3041280000.0,
		     TOL_EXACT);
	assert_close(op_value(&ws, "l10.p1.anchor_match.fwd", 1), 161280000.0,
		     TOL_EXACT);
	/* the frozen prefix runs forward only; the first trainable block
	 * needs no gradient for its input */
	assert_true(has_op(&ws, "l1.conv.fwd"));
	assert_false(has_op(&ws, "l1.conv.bwd_w"));
	assert_false(has_op(&ws, "l5.first.c1.bwd_w"));
	assert_false(has_op(&ws, "l6.first.c1.bwd_d"));
	assert_true(has_op(&ws, "l6.first.c1.bwd_w"));
	assert_true(has_op(&ws, "l6.first.c2.bwd_d"));
	assert_false(has_op(&ws, "loss.fwd"));
	assert_true(e.fits);
	est_workspace_release(&ws);
	free(w);
}

/*
 * torchvision's Mask R-CNN-ResNet50-FPN: 44,401,393 parameters; 134.38
 * GMACs (its _ops) for an 800 x 800 image in evaluation, i.e. without the
 * mask head and with the box head on 1,000 proposals:
 *   backbone 52,131,840,000 (as RetinaNet's)
 *   FPN on C2-C5 at 200, 100, 50, 25: 200^2 (256*256 + 9*256^2)
 *     + 100^2 (512*256 + 9*256^2) + 50^2 (1024*256 + 9*256^2)
 *     + 25^2 (2048*256 + 9*256^2) = 26,214,400,000 + 7,208,960,000
 *     + 2,129,920,000 + 696,320,000 = 36,249,600,000
 *   RPN on P2-P6 (P6 = P5 subsampled: 13 x 13), 53,294 positions x
 *     (9*256^2 + 256*15) = 53,294 x 593,664 = 31,638,729,216
 *   box head 1,000 x (12,544*1024 + 1024^2 + 1024*455) = 1,000 x
 *     14,359,552 = 14,359,552,000
 *   sum 134,379,721,216.
 * Parameters: backbone convolutions 23,454,912; FPN 4 x (9*256^2 + 256)
 *   + (256 + 512 + 1024 + 2048) x 256 + 4 x 256 = 3,344,384; RPN
 *   590,080 + 256*15 + 15 = 593,935; box head 12,544*1024 + 1024 +
 *   1024^2 + 1024 + 1024*455 + 455 = 14,362,055; mask head 4 x 590,080
 *   + 4*256^2 + 256 + 256*91 + 91 = 2,646,107; total 44,401,393.
 */
static void test_maskrcnn_torchvision(void **state)
{
	struct vision_arch a;
	struct vis_summary s;
	struct vis_shape sh[VIS_MAX_LAYERS];
	char msg[200];
	double macs = 0;
	(void)state;
	tc_vision_preset("maskrcnn-resnet50-fpn", &a);
	assert_int_equal(a.layer[10].kind, VL_ROI_BOX_HEAD);
	a.layer[10].rois = 1000;
	assert_int_equal(vision_infer(&a, 800, 0, sh, &s, msg, sizeof(msg)), 0);
	assert_close(s.params, 44401393.0, TOL_EXACT);
	for (int k = 0; k <= 10; k++)
		macs += sh[k].macs;
	assert_close(macs, 134379721216.0, TOL_EXACT);
	assert_close(macs / 1e9, 134.38, 1e-4);
	assert_close(sh[8].macs, 36249600000.0, TOL_EXACT);
	assert_close(sh[9].macs, 31638729216.0, TOL_EXACT);
	assert_int_equal(sh[8].levels, 5);
	assert_close(sh[8].lh[4], 13.0, TOL_EXACT);
	assert_int_equal(s.classes, 0);
}

/*
 * Mask R-CNN training at 800 x 1088 (short side 800, padded to 32), 11
 * images per GPU (tests/unit/data/vision/maskrcnn-l40s.yaml).
 * Levels: stem 400 x 544, pool 200 x 272, stages 200 x 272 ... 25 x 34,
 *   P6 13 x 17.
 * Mask head per region: 4 x 14^2 x 9*256^2 + 28^2 x 256^2 + 28^2 x 256
 *   x 91 = 462,422,016 + 51,380,224 + 18,264,064 = 532,066,304 MACs; x 128
 *   regions = 68,104,486,912 per image.
 * Box head: 512 x 14,359,552 = 7,352,090,624 MACs per image.
 * RoIAlign of the box head forward: 11 images x 512 x 256 x 49 elements x
 *   2 passes x 2 B = 282,591,232 B.
 */
static void test_maskrcnn_step(void **state)
{
	struct workload *w = tc_load_workload("tests/unit/data/vision/maskrcnn-l40s.yaml");
	struct vis_shape sh[VIS_MAX_LAYERS];
	struct vis_summary s;
	struct gpu g;
	struct est_workspace ws;
	struct estimate e;
	struct plan_problem why;
	char whyg[512], msg[200];
	(void)state;
	assert_int_equal(vision_infer(&w->vis, 800, 1088, sh, &s, msg,
				      sizeof(msg)), 0);
	assert_close(sh[3].h, 200.0, TOL_EXACT);
	assert_close(sh[3].w, 272.0, TOL_EXACT);
	assert_close(sh[8].lh[3], 25.0, TOL_EXACT);
	assert_close(sh[8].lw[3], 34.0, TOL_EXACT);
	assert_close(sh[8].lh[4], 13.0, TOL_EXACT);
	assert_close(sh[8].lw[4], 17.0, TOL_EXACT);
	assert_close(sh[11].macs, 68104486912.0, TOL_EXACT);
	assert_close(sh[10].macs, 7352090624.0, TOL_EXACT);

	assert_int_equal(gpu_catalog_lookup(&cat, "l40s", &g, whyg, sizeof(whyg)), 0);
	assert_int_equal(est_workspace_init(&ws, 4 * EST_MAX_OPS), 0);
	if (step_estimate(w, &g, &ws, &e, &why))
		fail_msg("estimate failed: %s", why.msg);
	assert_close(op_value(&ws, "l11.roi_align.fwd", 1), 282591232.0, TOL_EXACT);
	assert_true(has_op(&ws, "l12.deconv.bwd_w"));
	assert_true(has_op(&ws, "l10.p1.nms.fwd"));
	assert_false(has_op(&ws, "l10.p1.nms.bwd"));
	assert_false(has_op(&ws, "loss.fwd"));
	assert_true(e.fits);
	est_workspace_release(&ws);
	free(w);
}

/*
 * The Stable Diffusion v2 UNet (MLPerf): 865,910,724 parameters (the
 * reference's count) and, per 64 x 64 x 4 latent, by level (residual
 * block MACs hw (9 cin cout + 9 cout^2 [+ cin cout]) + 1280 cout; a
 * transformer of width c on T tokens T (8 c^2 + 12 c^2) + 2 T^2 c
 * + 2 T 77 c + 2 * 77 * 1024 c):
 *   conv in and out 2 x 4096 x 9 x 4 x 320 = 94,371,840
 *   input residual blocks 15,100,313,600 + 13,423,411,200
 *     + 13,425,049,600 + 3,778,150,400; down-sampling 3 x 943,718,400
 *   middle 3,778,150,400 (two blocks)
 *   output residual blocks (on the concatenated skips) 9,127,526,400
 *     + 34,398,208,000 + 38,590,054,400 + 40,685,977,600; up-sampling
 *     3,774,873,600 + 2 x 15,099,494,400
 *   transformers 5 x 19,378,339,840 (320 wide, 4096 tokens)
 *     + 5 x 9,932,636,160 (640, 1024) + 5 x 8,808,693,760 (1280, 256)
 *     + 2,322,104,320 (middle, 1280, 64) = 192,920,453,120
 *   timestep MLP 320 x 1280 + 1280^2 = 2,048,000
 *   total 402,128,732,160 MACs.
 * Frozen text encoder, 23 layers of width 1024 on 77 tokens: 23 x (77 x
 *   (4 x 1024^2 + 2 x 1024 x 4096) + 2 x 77^2 x 1024) = 22,563,616,768.
 * Model FLOPs per step of 256: (2 x (402,128,732,160 + 22,563,616,768)
 *   + 4 x 402,128,732,160) x 256 = 629,222,304,382,976.
 */
static void test_sd2_unet(void **state)
{
	struct workload *w = tc_load_workload("tests/unit/data/vision/sd2-h200.yaml");
	struct vis_summary s;
	struct gpu g;
	struct est_workspace ws;
	struct estimate e;
	struct plan_problem why;
	char whyg[512], msg[200];
	(void)state;
	assert_int_equal(vision_infer(&w->vis, 64, 0, NULL, &s, msg, sizeof(msg)), 0);
	assert_close(s.params, 865910724.0, TOL_EXACT);
	assert_close(s.macs, 402128732160.0, TOL_EXACT);
	assert_close(s.trainable_macs, s.macs, TOL_EXACT);
	assert_close(s.encoder_macs, 22563616768.0, TOL_EXACT);
	assert_close(s.out_map, 4.0 * 64 * 64, TOL_EXACT);
	assert_int_equal(s.classes, 0);

	assert_int_equal(gpu_catalog_lookup(&cat, "h200-sxm", &g, whyg, sizeof(whyg)), 0);
	/* about 1,400 distinct operators: room for all of them */
	assert_int_equal(est_workspace_init(&ws, 2048), 0);
	if (step_estimate(w, &g, &ws, &e, &why))
		fail_msg("estimate failed: %s", why.msg);
	assert_close(e.model_flop_per_step, 629222304382976.0, TOL_EXACT);
	/* the text encoder runs forward only; the transformers both ways */
	assert_true(has_op(&ws, "l2.1.st.xscore.fwd"));
	assert_true(has_op(&ws, "l2.1.st.xscore.bwd_k"));
	assert_true(has_op(&ws, "l17.3.concat.bwd"));
	assert_true(has_op(&ws, "loss.bwd"));
	for (size_t i = 0; i < ws.count; i++)
		if (!strncmp(ws.ops[i].name, "text.", 5))
			assert_null(strstr(ws.ops[i].name, "bwd"));
	assert_true(e.fits);
	est_workspace_release(&ws);
	free(w);
}

/*
 * The MLPerf 3D U-Net on 128^3 x 1 patches (3x3x3 kernels: 27 weights
 * per input and output channel; blocks: conv (stride s) + norm + ReLU +
 * conv + norm + ReLU, norms 2 parameters per channel):
 *   encoder at 128^3, 64^3, 32^3, 16^3, 8^3, 4^3:
 *     128^3 (27*1*32 + 27*32*32)    = 59,793,997,824
 *     64^3 (27*32*64 + 27*64*64)    = 43,486,543,872
 *     32^3 (27*64*128 + 27*128^2)   = 21,743,271,936
 *     16^3 (27*128*256 + 27*256^2)  = 10,871,635,968
 *     8^3 (27*256*320 + 27*320^2)   =  2,548,039,680
 *     4^3 (27*320*320 + 27*320^2)   =    353,894,400
 *   decoder, 2x2x2 transposed convolution (input positions x cin x cout
 *   x 8) then a block on the concatenation:
 *     4^3*320*320*8 = 52,428,800;  8^3 (27*640*320 + 27*320^2) = 4,246,732,800
 *     8^3*320*256*8 = 335,544,320; 16^3 (27*512*256 + 27*256^2) = 21,743,271,936
 *     16^3*256*128*8 = 1,073,741,824; 32^3 (27*256*128 + 27*128^2) = 43,486,543,872
 *     32^3*128*64*8 = 2,147,483,648; 64^3 (27*128*64 + 27*64^2) = 86,973,087,744
 *     64^3*64*32*8 = 4,294,967,296; 128^3 (27*64*32 + 27*32^2) = 173,946,175,488
 *   output 128^3 x 32 x 3 = 201,326,592
 *   total 477,298,688,000 MACs per patch.
 * Parameters: blocks 28,640 + 166,144 + 664,064 + 2,655,232 + 4,977,920
 *   + 5,530,880 (encoder) + 8,295,680 + 5,309,440 + 1,327,616 + 332,032
 *   + 83,072 (decoder); transposed convolutions with bias 819,520
 *   + 655,616 + 262,272 + 65,600 + 16,416; output 99: 31,190,243.
 */
static void test_unet3d(void **state)
{
	struct workload *w = tc_load_workload("tests/unit/data/vision/unet3d-l40s.yaml");
	struct vis_shape sh[VIS_MAX_LAYERS];
	struct vis_summary s;
	struct gpu g;
	struct est_workspace ws;
	struct estimate e;
	struct plan_problem why;
	char whyg[512], msg[200];
	(void)state;
	assert_int_equal(vision_infer(&w->vis, 128, 0, sh, &s, msg, sizeof(msg)), 0);
	assert_close(s.params, 31190243.0, TOL_EXACT);
	assert_close(s.macs, 477298688000.0, TOL_EXACT);
	assert_close(sh[5].d, 4.0, TOL_EXACT);
	assert_close(sh[5].h, 4.0, TOL_EXACT);
	assert_close(sh[15].d, 128.0, TOL_EXACT);
	assert_close(s.out_map, 3.0 * 128 * 128 * 128, TOL_EXACT);
	assert_int_equal(gpu_catalog_lookup(&cat, "l40s", &g, whyg, sizeof(whyg)), 0);
	assert_int_equal(est_workspace_init(&ws, 4 * EST_MAX_OPS), 0);
	if (step_estimate(w, &g, &ws, &e, &why))
		fail_msg("estimate failed: %s", why.msg);
	/* 4 patches per GPU: the first block's second convolution is a
	 * GEMM of M = 4 x 128^3, N = 32, K = 27 x 32 */
	assert_close(op_value(&ws, "l1.conv2.fwd", 0),
		     2.0 * 4 * 128 * 128 * 128 * 32 * 27 * 32, TOL_EXACT);
	assert_true(has_op(&ws, "l8.concat.fwd"));
	assert_close(e.model_flop_per_step, 6 * 477298688000.0 * 56, TOL_EXACT);
	est_workspace_release(&ws);
	free(w);
}

/* Relations: a larger image never makes a detector step faster; more
 * classes never make it faster; unfreezing the prefix never makes it
 * faster. */
static void test_relations(void **state)
{
	struct workload *w = tc_load_workload("tests/unit/data/vision/retinanet-l40s.yaml");
	struct gpu g;
	struct est_workspace ws;
	struct estimate e1, e2;
	struct plan_problem why;
	char whyg[512];
	(void)state;
	assert_int_equal(gpu_catalog_lookup(&cat, "l40s", &g, whyg, sizeof(whyg)), 0);
	assert_int_equal(est_workspace_init(&ws, 4 * EST_MAX_OPS), 0);
	assert_int_equal(step_estimate(w, &g, &ws, &e1, &why), 0);
	w->vtrain.image_size = 640;
	assert_int_equal(step_estimate(w, &g, &ws, &e2, &why), 0);
	assert_true(e2.step_time_s < e1.step_time_s);
	w->vtrain.image_size = 800;
	w->vis.layer[w->vis.nlayers - 1].classes = 600;
	assert_int_equal(step_estimate(w, &g, &ws, &e2, &why), 0);
	assert_true(e2.step_time_s > e1.step_time_s);
	w->vis.layer[w->vis.nlayers - 1].classes = 264;
	for (int k = 0; k < w->vis.nlayers; k++)
		w->vis.layer[k].frozen = 0;
	assert_int_equal(step_estimate(w, &g, &ws, &e2, &why), 0);
	assert_true(e2.step_time_s > e1.step_time_s);
	est_workspace_release(&ws);
	free(w);
}

/* Bad detector inputs: exact messages and positions. */
static void test_bad_inputs(void **state)
{
#define D "tests/unit/data/vision/"
	static const struct { const char *file, *msg; } t[] = {
		{ D "fpn-no-feature.yaml", D "fpn-no-feature.yaml:6:7: fpn has no feature map to read (expected pyramid: true on the entries whose outputs feed it)" },
		{ D "head-no-fpn.yaml", D "head-no-fpn.yaml:5:7: retina_head without a feature pyramid (expected an fpn entry before it)" },
		{ D "pyramid-unread.yaml", D "pyramid-unread.yaml:4:7: pyramid output that no fpn reads (expected an fpn entry after it)" },
		{ D "frozen-late.yaml", D "frozen-late.yaml:5:7: frozen conv after a trainable entry (expected frozen entries first: gradients flow through them to the layers before)" },
		{ D "after-head.yaml", D "after-head.yaml:7:7: relu after the detection head of entry 3 (expected the head last)" },
		{ D "groups-not-dividing.yaml", D "groups-not-dividing.yaml:5:7: groups 32 on bottleneck of width 100 (expected a bottleneck whose width the groups divide)" },
		{ D "roi-no-rpn.yaml", D "roi-no-rpn.yaml:6:7: roi_box_head without region proposals (expected an rpn_head before it)" },
		{ D "concat-no-save.yaml", D "concat-no-save.yaml:5:7: concat with no saved output left (expected save: true on as many earlier copies)" },
		{ D "save-unread.yaml", D "save-unread.yaml:4:7: saved output that no concat reads (expected a concat for every save; 1 left)" },
		{ D "concat-size.yaml", D "concat-size.yaml:6:7: concat of a 32x32 output onto 16x16 (expected the same size)" },
		{ D "heads-no-text.yaml", D "heads-no-text.yaml:5:7: resblock of 64 channels with 2 heads (expected heads that divide the channels, and a text_encoder for their cross-attention)" },
		{ D "vol-bottleneck.yaml", D "vol-bottleneck.yaml:7:7: bottleneck in a 3-D network (expected conv, convblock, deconv, groupnorm, batchnorm, relu, gelu, silu or add)" },
		{ D "head-no-classes.yaml", D "head-no-classes.yaml:6:7: retina_head needs anchors and classes (expected anchors: per position, classes: object classes)" },
	};
#undef D
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resnext50),
		cmocka_unit_test(test_retinanet_torchvision),
		cmocka_unit_test(test_retinanet_mlperf_step),
		cmocka_unit_test(test_maskrcnn_torchvision),
		cmocka_unit_test(test_maskrcnn_step),
		cmocka_unit_test(test_sd2_unet),
		cmocka_unit_test(test_unet3d),
		cmocka_unit_test(test_relations),
		cmocka_unit_test(test_bad_inputs),
	};
	return cmocka_run_group_tests(tests, tc_catalog_setup_frozen, tc_catalog_teardown);
}

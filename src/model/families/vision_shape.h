/*
 * vision_shape.h - the shapes, parameters and multiply-adds of a vision
 * network's layer list at one image size, and the check that the list can
 * run (vision_shape.c).
 */
#ifndef TC_VISION_SHAPE_H
#define TC_VISION_SHAPE_H

#include <stddef.h>

#include "vision_types.h"

/*
 * Infer the shape after every entry of `a` for images of `image` x
 * `image_w` pixels (image_w 0: square) into sh[0 .. a->nlayers-1] (may be
 * NULL) and the totals into *sum
 * (may be NULL).  Returns 0, or the 1-based index of the first entry that
 * cannot run (a size that shrinks to nothing, channels that do not divide,
 * an attention block before `tokens`) with a message in msg.
 */
int vision_infer(const struct vision_arch *a, double image, double image_w,
		 struct vis_shape *sh, struct vis_summary *sum, char *msg,
		 size_t msglen);

#endif

// Package multipass is the fallback a chip driver shares when its chip
// cannot express a valid GL ES 1.1 state in one pass: the fragment colour
// is computed in offscreen colour buffers ("registers") that the chip
// renders into and then samples as textures, and a final pass (the
// composite) draws the geometry into the framebuffer with the register as
// its texture and the application's per-fragment state: alpha test,
// stencil, depth, blending, logic op, masks and dither, each applied once,
// by the chip.
//
// # Pieces
//
//   - The planner (Plan) turns a state into a Program: register operations
//     that evaluate the texture environments of every unit (GL_COMBINE
//     included) and fog, and the composite. Every operation is one chip
//     pass of a kind every fixed-function chip has: one texture (or none)
//     times a vertex colour, blended with the register's content by a GL
//     blend function (DST_COLOR*src, ONE+ONE, subtract, ...). What no pass
//     can express (DOT3 combines on a chip without a dot product) makes
//     the Program a software one: the CPU computes the fragment colours
//     (Shade) and the chip only composites them.
//   - The batcher (Batches) splits a draw's window-space primitives into
//     runs that do not overlap on screen. A register holds one colour per
//     pixel, so the composite can only read back the colour of the
//     primitive that wrote the pixel if no other primitive of the batch
//     covers it; batches keep the primitives' order, so GL's order of
//     per-fragment operations is kept.
//   - The runner (Run) executes a Program for each batch and each tile of
//     the registers through the Chip interface a driver implements:
//     register size, one operation, a software upload and the composite.
//
// # Costs
//
// A Program's Passes is the number of chip passes per batch and tile:
// one per register operation, the alpha merge on chips whose passes do
// not store alpha (Caps.AlphaRegisters false), and the composite. The
// figures of a draw on the fallback are the chip's; a software Program
// says so (Program.Software) and its CPU work is counted apart.
package multipass

// Package trace records GL calls to a text file and plays them back.
//
// A Recorder wraps a GL (a *gles.Context, or anything with its entry
// points) and writes every call, with its arguments and the bytes of the
// arrays and textures it hands over, to a trace. A Player reads a trace and
// makes the same calls on another context, on any backend; the program in
// tools/mesaref makes them on Mesa. Traces let a user capture an app once and
// compare what every backend makes of it.
//
// # Format
//
// A trace is UTF-8 text, one item per line; docs/examples.md has the full
// description. The first line is the magic "retrogl-trace 1". Then:
//
//	# a comment, ignored
//	Surface 320 240 16 0
//	ClearColor 0.1 0.1 0.25 1
//	Clear COLOR_BUFFER_BIT|DEPTH_BUFFER_BIT
//	VertexPointer 3 FLOAT 0 [36]AACAPwAAgL8AAAAA...
//	DrawElements TRIANGLES 6 UNSIGNED_SHORT [12]AAABAAIAAAACAAMA
//	GenTextures 1 = {1}
//
// Surface gives the surface (width, height, minimum depth and stencil bits)
// and comes before any call. A call line is the entry point's name without
// the gl prefix, then its arguments separated by blanks; a call that returns
// a value ends with "=" and the value. Arguments are:
//
//   - integers, decimal or 0x hex;
//   - floats, in the shortest decimal form that reads back to the same
//     float32 (NaN, +Inf and -Inf included);
//   - enumerants by their GL name without the GL_ prefix (any name of
//     package gles), or as an integer; bitfields join names with "|";
//   - booleans: true, false;
//   - vectors in braces: {1 0 0 1};
//   - byte arrays as [N] followed by N bytes in standard base64 with
//     padding, or nil;
//   - strings, Go-quoted (only as results).
//
// A client array (a slice handed to a Pointer call) is written with the
// call, and written again by the recorder before any draw that would read
// different bytes from it, so a trace holds exactly what each draw read. A
// pointer into a buffer object is written as its byte offset. Object names
// returned by GenTextures and GenBuffers are recorded; a player maps them to
// the names its own context returns.
package trace

//go:generate go run ./internal/gen -gles ../gles -out . -header ../tools/mesaref/enums_gen.h

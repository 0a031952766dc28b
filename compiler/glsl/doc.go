// Package glsl is the GLSL ES 1.00 front end: preprocessor, lexer, parser,
// type checker and the front half of the linker.
//
// Compile turns one shader's source into a checked, typed tree (a *Shader):
// every expression carries its Type, every name is resolved to a *Var or a
// *Function, constant expressions are folded into *ConstExpr values, and
// calls of built-in functions are *BuiltinCall nodes that name the built-in by
// an Op, so a back end lowers them without looking at names. Link matches a
// vertex and a fragment shader (varyings by name and type, uniforms shared by
// both stages), and flattens attributes and uniforms to locations as GL does.
//
// Supported languages: GLSL ES 1.00 (#version 100, the default), and the part of
// desktop GLSL 1.10 and 1.20 that piglit's tests use (#version 110 and 120:
// the fixed-function built-in variables and uniforms, ftransform, gl_FragData,
// texture1D/3D and shadow lookups, non-square matrices and implicit int->float
// conversions in 1.20).
//
// Diagnostics use Mesa's shape, "0:12(5): error: message": source string, line
// and column (both 1-based), severity, message. See docs/glsl.md for the
// decisions taken where the specification leaves room.
package glsl

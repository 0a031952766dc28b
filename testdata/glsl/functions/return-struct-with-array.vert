// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
//
// Section 6.1: a function cannot return a structure that contains an array.
struct S { float a[2]; };
S f() { S s; s.a[0] = 1.0; s.a[1] = 2.0; return s; }
void main() { gl_Position = vec4(f().a[0]); }

// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
//
// Section 3.4: #extension must come before any non-preprocessor token.
void f() { }
#extension all : warn
void main() { gl_Position = vec4(0.0); }

// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
//
// GLSL ES 1.00 section 3.4: nothing but comments may follow #endif.
#if 1
#endif extra
void main() { gl_Position = vec4(0.0); }

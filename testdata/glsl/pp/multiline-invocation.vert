// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
#define ADD(a, b) ((a) + (b))
void main()
{
    gl_Position = vec4(ADD(1.0,
                           2.0));
}

// [config]
// expect_result: pass
// glsl_version: 1.00
// appendix_a: true
// [end config]
#version 100
precision mediump float;
uniform vec4 u[4];
void main()
{
    vec4 s = vec4(0.0);
    for (int i = 3; i >= 0; i -= 1) s += u[i] * u[3 - i];
    gl_FragColor = s;
}

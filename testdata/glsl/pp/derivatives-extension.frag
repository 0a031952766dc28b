// [config]
// expect_result: pass
// glsl_version: 1.00
// require_extensions: GL_OES_standard_derivatives
// [end config]
#version 100
#extension GL_OES_standard_derivatives : enable
precision mediump float;
varying vec2 uv;
void main()
{
#ifdef GL_OES_standard_derivatives
    gl_FragColor = vec4(dFdx(uv), dFdy(uv.x), fwidth(uv.y));
#endif
}

// [config]
// expect_result: pass
// glsl_version: 1.10
// [end config]
#version 110
void main() { float lowp = 1.0; gl_FragColor = vec4(lowp); }

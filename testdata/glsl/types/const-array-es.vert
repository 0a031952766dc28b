// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
const float a[2];
void main() { }

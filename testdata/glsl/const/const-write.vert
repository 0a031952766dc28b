// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
const float c = 1.0;
void main() { c = 2.0; }

// [config]
// expect_result: fail
// glsl_version: 1.00
// check_link: true
// [end config]
#version 100
void f() { }

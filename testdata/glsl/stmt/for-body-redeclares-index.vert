// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
//
// Section 6.3: the body of a for loop opens no new scope, so it cannot
// redeclare the loop variable.
void main() {
    for (int i = 0; i < 2; i++) {
        float i = 1.0;
    }
    gl_Position = vec4(0.0);
}

package unichrome

// StreamOff turns drawStream off in tests, so that a draw goes through
// Run and drawMesh.
var StreamOff = &streamOff
